import { FailureSpell } from "./failure-spell.js";
import { type Activity, noActivity } from "./journal-share.js";
import type { ChildRef, UnavailableReason } from "./sink.js";

/** Why a child is not polled: the token no longer covers it. */
export type Suspension =
  /**
   * A read answered 403 while the list still shows the child: that read is tried again at `due`,
   * after `refusals` 403s in a row, the wait doubling from a minute up to five (backoff.ts).
   */
  | { kind: "refused"; read: "events" | "today"; due: number; refusals: number }
  /** Gone from the token's list of children: not read again until the list shows it again. */
  | { kind: "unlisted" };

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
  /** The child's recent facts: a busy child's journal is read more often once the budget is short. */
  activity: Activity;
  /** Not polled, and why; null while the child is followed (see Suspension). */
  suspended: Suspension | null;
  /** The child's failing reads, each its own spell (read-spells.ts); today's also counts towards unavailable. */
  eventsSpell: FailureSpell;
  todaySpell: FailureSpell;
  /** The sink refusing the child's facts, tried again after a growing wait (SINK_REFUSED_BACKOFF). */
  sinkSpell: FailureSpell;
  /**
   * The reads whose facts the sink refuses: a journal fact's (events) or a derived one's (today).
   * The spell ends once each has gone through: a journal poll with nothing new does not end it.
   */
  sinkRefusedIn: Set<"events" | "today">;
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
    activity: noActivity(now),
    suspended: null,
    eventsSpell: new FailureSpell(),
    todaySpell: new FailureSpell(),
    sinkSpell: new FailureSpell(),
    sinkRefusedIn: new Set(),
    unavailable: null,
    schemaIssue: { events: null, today: null },
  };
}

/** Today's state changed at `since`: read it at `at` (now, or the moment a session ends) at the latest. */
export function pullTodayForward(track: Track, at: number, since: number): void {
  track.todayDue = Math.min(track.todayDue, at);
  track.todayStaleSince = Math.min(track.todayStaleSince ?? since, since);
}
