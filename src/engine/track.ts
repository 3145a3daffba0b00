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
  /** The child's recent facts: a busy child's journal is read more often once the budget is short. */
  activity: Activity;
  /** Not polled: the token no longer covers the child (403); discovery may bring it back. */
  suspended: boolean;
  /** The child's failing reads, each its own spell (read-spells.ts); today's also counts towards unavailable. */
  eventsSpell: FailureSpell;
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
    activity: noActivity(now),
    suspended: false,
    eventsSpell: new FailureSpell(),
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
