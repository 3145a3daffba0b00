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
    intervals: { eventsMs: 30_000, todayMs: 60_000 },
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

  it("under a full budget, serves routine polls by lateness weighed by their share of the even plan", () => {
    // The even plan reads each journal every 30 s (schedule()). A busy child's journal planned at
    // that pace, a quiet one's at a third of it (a ninth of the facts): both are behind.
    const busy = track("busy", NOW - 15_000, NOW + 60_000);
    busy.eventsEveryMs = 30_000;
    const quiet = track("quiet", NOW - 30_000, NOW + 60_000);
    quiet.eventsEveryMs = 90_000;
    // 15 s late at a full share goes before 60 s at a third, though the quiet one was due earlier.
    quiet.eventsDue = NOW - 60_000;
    expect(describeJob(nextJob(schedule([busy, quiet]), NOW))).toBe("events:busy");
    // Until the quiet one is more than nine times as late.
    quiet.eventsDue = NOW - 140_000;
    expect(describeJob(nextJob(schedule([busy, quiet]), NOW))).toBe("events:quiet");
    // Not run yet: a full share (today's 60 s here).
    const fresh = track("fresh", NOW + 60_000, NOW - 50_000);
    expect(describeJob(nextJob(schedule([busy, quiet, fresh]), NOW))).toBe("today:fresh");
  });

  it("on the even plan, runs the longest overdue first, a today read as well as a journal poll", () => {
    // Twelve children alike: journals every 34 s, today reads every 101 s, all on the even plan.
    const intervals = { eventsMs: 34_000, todayMs: 101_000 };
    const a = track("a", NOW - 12_000, NOW + 50_000);
    a.eventsEveryMs = intervals.eventsMs;
    const b = track("b", NOW + 20_000, NOW - 20_000);
    b.todayEveryMs = intervals.todayMs;
    // The today read is later: it goes first, though fewer of its own intervals late.
    expect(describeJob(nextJob(schedule([a, b], { intervals }), NOW))).toBe("today:b");
  });

  it("counts a busy child's journal out in proportion to its interval when every poll is behind", () => {
    // A busy journal planned on 30 s, nine quiet ones on 90 s and ten today reads on 180 s ask for
    // about 11.3 requests a minute; one goes every 7.5 s, 8 a minute. A job that fell behind is due
    // again from the moment it ran, as the pacing plans it (pacing.ts, #after).
    const tracks = Array.from({ length: 10 }, (_, i) => {
      const t = track(i === 0 ? "busy" : `quiet${i}`, NOW, NOW);
      t.eventsEveryMs = i === 0 ? 30_000 : 90_000;
      t.todayEveryMs = 180_000;
      return t;
    });
    const runs = new Map<string, number[]>();
    for (let now = NOW; now < NOW + 30 * 60_000; now += 7_500) {
      const job = nextJob(schedule(tracks, { discoveryDue: Infinity, statusDue: Infinity }), now);
      if (!("track" in job) || job.due > now) continue;
      runs.set(describeJob(job), [...(runs.get(describeJob(job)) ?? []), now]);
      if (job.kind === "events")
        job.track.eventsDue = Math.max(job.due + (job.track.eventsEveryMs ?? 0), now);
      else job.track.todayDue = Math.max(job.due + (job.track.todayEveryMs ?? 0), now);
    }
    const count = (key: string) => runs.get(key)?.length ?? 0;
    // The busy journal is read about three times as often as each quiet one, not in turn with them.
    const quiet = tracks.slice(1).map((t) => count(`events:${t.child.id}`));
    expect(count("events:busy")).toBeGreaterThan(2.5 * Math.max(...quiet));
    expect(Math.max(...quiet) - Math.min(...quiet)).toBeLessThanOrEqual(1);
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
    t.suspended = { kind: "unlisted" };
    expect(nextJob(schedule([t]), NOW).kind).toBe("status");
  });

  it("tries a refused child's refused read again at its time, and nothing else of that child", () => {
    const t = track("a", NOW - 50_000, NOW - 50_000);
    t.suspended = { kind: "refused", read: "events", due: NOW + 60_000, refusals: 1 };
    const other = track("b", NOW + 30_000, NOW + 40_000);
    const rare = { discoveryDue: Infinity, statusDue: Infinity };
    expect(nextJob(schedule([t, other], rare), NOW)).toMatchObject({ kind: "events", track: other });
    // Its routine polls, long overdue, are not run.
    expect(nextJob(schedule([t, other], rare), NOW + 45_000)).toMatchObject({ track: other });
    expect(nextJob(schedule([t], rare), NOW + 70_000)).toMatchObject({
      kind: "events",
      track: t,
      due: NOW + 60_000,
    });
  });
});
