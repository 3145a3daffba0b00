import type { Track } from "./track.js";

export type Job =
  | { kind: "discovery" | "token_check" | "status"; due: number }
  | { kind: "events" | "today"; due: number; track: Track };

export interface Schedule {
  tokenInvalid: boolean;
  tokenCheckDue: number;
  discoveryDue: number;
  statusDue: number;
  tracks: Iterable<Track>;
  /** The even plan's intervals now, stretch included: each poll's share is weighed against them. */
  intervals: { eventsMs: number; todayMs: number };
}

/**
 * The job to run next. First the jobs that are rare, free or known stale: the children's list,
 * the status, and a today read pulled forward by a new fact (stale since that fact). Then the
 * routine polls already due, by how many facts each is expected to have kept waiting: its
 * lateness times the rate of facts it reads, against the even plan's. That rate is read from the
 * poll's share of the even plan: a busy child's journal is planned at a pace that grows as the
 * square root of its rate (journal-share.ts), so a journal planned at twice the even pace reads
 * four times the facts, and its lateness counts four times. Alone on the token with children
 * alike, every share is 1 and the longest overdue goes first, a today read planned every 90 s as
 * well as a journal poll planned every 30 s: counting lateness in each poll's own intervals
 * instead put the today reads behind (bench, 12 children: today fact age p95 ×1.10 the best
 * against ×1.09). When none is due, the earliest to come (the loop sleeps until then). With a
 * revoked token, only its check. A child suspended by a 403 has only its refused read tried
 * again, at its own time; one gone from the list, nothing.
 */
export function nextJob(schedule: Schedule, now: number): Job {
  if (schedule.tokenInvalid) return { kind: "token_check", due: schedule.tokenCheckDue };
  const { intervals } = schedule;
  const candidates: Job[] = [
    { kind: "discovery", due: schedule.discoveryDue },
    { kind: "status", due: schedule.statusDue },
  ];
  for (const track of schedule.tracks) {
    const { suspended } = track;
    // A child the API refused: only the refused read, at its next try.
    if (suspended?.kind === "refused") candidates.push({ kind: suspended.read, due: suspended.due, track });
    if (suspended) continue;
    candidates.push(
      { kind: "events", due: track.eventsDue, track },
      { kind: "today", due: track.todayDue, track },
    );
  }
  // A routine poll's share of the even plan: the even interval over its own.
  const shareOf = (job: Extract<Job, { track: Track }>) => {
    const [everyMs, evenMs] =
      job.kind === "events"
        ? [job.track.eventsEveryMs, intervals.eventsMs]
        : [job.track.todayEveryMs, intervals.todayMs];
    return everyMs === null ? 1 : evenMs / Math.max(everyMs, 1);
  };
  // Lowest first: [class, key]. Due and free or stale: by stale-since; due routine: by lateness
  // times share², the facts it keeps waiting; to come: by due time.
  const rank = (job: Job): [number, number] => {
    if (job.due > now) return [2, job.due];
    if (!("track" in job)) return [0, job.due];
    if (job.kind === "today" && job.track.todayStaleSince !== null) {
      return [0, Math.min(job.track.todayStaleSince, job.due)];
    }
    const share = shareOf(job);
    return [1, -(now - job.due) * share * share];
  };
  let best = candidates[0] as Job;
  let bestKey = rank(best);
  for (const candidate of candidates) {
    const key = rank(candidate);
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = candidate;
      bestKey = key;
    }
  }
  return best;
}
