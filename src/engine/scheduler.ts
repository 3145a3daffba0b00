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
}

/**
 * The job to run next. Of the jobs already due, the one whose reading is the most stale: a routine
 * poll is stale since it was due, a today read pulled forward by a new fact since that fact, so it
 * goes before the routine polls that pile up once the budget is full. When none is due, the
 * earliest to come (the loop sleeps until then). With a revoked token, only its check.
 */
export function nextJob(schedule: Schedule, now: number): Job {
  if (schedule.tokenInvalid) return { kind: "token_check", due: schedule.tokenCheckDue };
  const jobs: Job[] = [
    { kind: "discovery", due: schedule.discoveryDue },
    { kind: "status", due: schedule.statusDue },
  ];
  for (const track of schedule.tracks) {
    if (track.suspended) continue;
    jobs.push({ kind: "events", due: track.eventsDue, track }, { kind: "today", due: track.todayDue, track });
  }
  // Due jobs first, by staleness; then the jobs to come, by due time.
  const rank = (job: Job): [number, number] => (job.due <= now ? [0, staleSince(job)] : [1, job.due]);
  let next = jobs[0] as Job;
  let best = rank(next);
  for (const job of jobs) {
    const key = rank(job);
    if (key[0] < best[0] || (key[0] === best[0] && key[1] < best[1])) {
      next = job;
      best = key;
    }
  }
  return next;
}

function staleSince(job: Job): number {
  if (job.kind === "today" && job.track.todayStaleSince !== null) {
    return Math.min(job.track.todayStaleSince, job.due);
  }
  return job.due;
}
