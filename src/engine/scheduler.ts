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
  /** The intervals planned now, stretch included: for the polls that have not run yet. */
  intervals: { eventsMs: number; todayMs: number };
}

/**
 * The job to run next. First the jobs that are rare, free or known stale: the children's list,
 * the status, and a today read pulled forward by a new fact (stale since that fact). Then the
 * routine polls already due, by how late each is counted in its own interval: once the budget is
 * full they all fall behind, and a child whose journal is read every 30 s (a busy one,
 * journal-share.ts) then waits as many of its intervals as a quiet one read every 90 s waits of
 * its, so each keeps its share rather than all taking turns alike. When none is due, the earliest
 * to come (the loop sleeps until then). With a revoked token, only its check.
 */
export function nextJob(schedule: Schedule, now: number): Job {
  if (schedule.tokenInvalid) return { kind: "token_check", due: schedule.tokenCheckDue };
  const { intervals } = schedule;
  const candidates: Array<{ job: Job; everyMs: number }> = [
    { job: { kind: "discovery", due: schedule.discoveryDue }, everyMs: 0 },
    { job: { kind: "status", due: schedule.statusDue }, everyMs: 0 },
  ];
  for (const track of schedule.tracks) {
    if (track.suspended) continue;
    candidates.push(
      {
        job: { kind: "events", due: track.eventsDue, track },
        everyMs: track.eventsEveryMs ?? intervals.eventsMs,
      },
      {
        job: { kind: "today", due: track.todayDue, track },
        everyMs: track.todayEveryMs ?? intervals.todayMs,
      },
    );
  }
  // Lowest first: [class, key]. Due and free or stale: by stale-since; due routine: the most
  // intervals late first; to come: by due time.
  const rank = ({ job, everyMs }: { job: Job; everyMs: number }): [number, number] => {
    if (job.due > now) return [2, job.due];
    if (job.kind === "status" || job.kind === "discovery") return [0, job.due];
    if (job.kind === "today" && job.track.todayStaleSince !== null) {
      return [0, Math.min(job.track.todayStaleSince, job.due)];
    }
    return [1, -(now - job.due) / Math.max(everyMs, 1)];
  };
  let best = candidates[0] as (typeof candidates)[number];
  let bestKey = rank(best);
  for (const candidate of candidates) {
    const key = rank(candidate);
    if (key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
      best = candidate;
      bestKey = key;
    }
  }
  return best.job;
}
