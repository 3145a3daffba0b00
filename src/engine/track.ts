import { FailureSpell } from "./failure-spell.js";
import { type Activity, noActivity } from "./journal-share.js";
import type { ChildRef, UnavailableReason } from "./sink.js";

/** What the loop keeps per child: when each job is due, and how the child is doing. */
export interface Track {
  child: ChildRef;
  eventsDue: number;
  todayDue: number;
  /** The interval each job was last planned on, stretch included; null before it first runs. */
  eventsEveryMs: number | null;
  todayEveryMs: number | null;
  /**
   * Set when today's reading was pulled forward (a new fact, a session's end): since when it is
   * known to be stale. Such a read goes before routine polls (scheduler.ts).
   */
  todayStaleSince: number | null;
  /** When the last today read that succeeded was sent (epoch ms); null before the first. */
  todayReadAt: number | null;
  /** The child's recent facts: a busy child's journal is read more often once the budget is short. */
  activity: Activity;
  /** Not polled: the token no longer covers the child (403); discovery may bring it back. */
  suspended: boolean;
  todaySpell: FailureSpell;
  /** The reason last published, or null while available. */
  unavailable: UnavailableReason | null;
  /** The unreadable-answer issue last logged per job, so a repeated one is logged once. */
  schemaIssue: { events: string | null; today: string | null };
}

export function newTrack(child: ChildRef, now: number): Track {
  return {
    child,
    eventsDue: now,
    todayDue: now,
    eventsEveryMs: null,
    todayEveryMs: null,
    todayStaleSince: null,
    todayReadAt: null,
    activity: noActivity(now),
    suspended: false,
    todaySpell: new FailureSpell(),
    unavailable: null,
    schemaIssue: { events: null, today: null },
  };
}

/** Today's state changed at `since`: read it at `at` (now, or the moment a session ends) at the latest. */
export function pullTodayForward(track: Track, at: number, since: number): void {
  track.todayDue = Math.min(track.todayDue, at);
  track.todayStaleSince = Math.min(track.todayStaleSince ?? since, since);
}

/**
 * How far the API's clock, which dates the facts, and this machine's, which dates the today reads,
 * may differ before a fact that came just after a read is taken for one it has seen.
 */
const CLOCK_MARGIN_MS = 10_000;

/**
 * The journal gave facts from `firstAt` to `lastAt` (epoch ms): today's state has changed with any
 * of them that came after its last read, and is read now, stale since the first of those. Facts
 * older than that read (a backlog's later pages) are already in it, and pull nothing forward.
 */
export function noteFactsRead(track: Track, firstAt: number, lastAt: number, now: number): void {
  const seenUntil =
    track.todayReadAt === null ? Number.NEGATIVE_INFINITY : track.todayReadAt - CLOCK_MARGIN_MS;
  if (lastAt < seenUntil) return;
  pullTodayForward(track, now, Math.max(firstAt, seenUntil));
}
