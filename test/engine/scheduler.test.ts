import { describe, expect, it } from "vitest";
import { nextJob, type Schedule } from "../../src/engine/scheduler.js";
import { newTrack, pullTodayForward, type Track } from "../../src/engine/track.js";

const NOW = 1_000_000;

function track(id: string, eventsDue: number, todayDue: number): Track {
  const t = newTrack({ id, firstName: id }, 0);
  t.eventsDue = eventsDue;
  t.todayDue = todayDue;
  return t;
}

function schedule(tracks: Track[], overrides: Partial<Schedule> = {}): Schedule {
  return {
    tokenInvalid: false,
    tokenCheckDue: 0,
    discoveryDue: NOW + 60_000,
    statusDue: NOW + 30_000,
    tracks,
    ...overrides,
  };
}

const describeJob = (job: ReturnType<typeof nextJob>) =>
  "track" in job ? `${job.kind}:${job.track.child.id}` : job.kind;

describe("the scheduler", () => {
  it("runs the longest overdue job first, and sleeps until the earliest when none is due", () => {
    const a = track("a", NOW - 5_000, NOW + 10_000);
    const b = track("b", NOW - 9_000, NOW - 1_000);
    expect(describeJob(nextJob(schedule([a, b]), NOW))).toBe("events:b");
    const later = track("c", NOW + 4_000, NOW + 2_000);
    const job = nextJob(schedule([later]), NOW);
    expect(describeJob(job)).toBe("today:c");
    expect(job.due).toBe(NOW + 2_000);
  });

  it("puts a today read pulled forward by a new fact before routine polls already overdue", () => {
    // A full budget: every child's polls are behind.
    const busy = [track("a", NOW - 20_000, NOW - 15_000), track("b", NOW - 18_000, NOW - 12_000)];
    const fresh = track("c", NOW - 1_000, NOW + 40_000);
    // c's journal had a fact that happened 30 s ago: its today is stale since then.
    pullTodayForward(fresh, NOW, NOW - 30_000);
    expect(describeJob(nextJob(schedule([...busy, fresh]), NOW))).toBe("today:c");
    // Once read, it is routine again.
    fresh.todayStaleSince = null;
    fresh.todayDue = NOW + 60_000;
    expect(describeJob(nextJob(schedule([...busy, fresh]), NOW))).toBe("events:a");
  });

  it("keeps a read set for a session's end until that moment, then puts it first", () => {
    const t = track("a", NOW + 20_000, NOW + 50_000);
    pullTodayForward(t, NOW + 10_000, NOW + 9_000);
    expect(nextJob(schedule([t]), NOW)).toMatchObject({ kind: "today", due: NOW + 10_000 });
    const behind = track("b", NOW + 11_000, NOW + 11_500);
    expect(describeJob(nextJob(schedule([t, behind]), NOW + 12_000))).toBe("today:a");
  });

  it("polls nothing but the token check while the token is refused, and skips suspended children", () => {
    const t = track("a", NOW - 50_000, NOW - 50_000);
    expect(nextJob(schedule([t], { tokenInvalid: true, tokenCheckDue: NOW + 600_000 }), NOW).kind).toBe(
      "token_check",
    );
    t.suspended = true;
    expect(nextJob(schedule([t]), NOW).kind).toBe("status");
  });
});
