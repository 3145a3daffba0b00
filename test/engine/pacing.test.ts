import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Pacing } from "../../src/engine/pacing.js";
import { RateBudget } from "../../src/engine/rate-budget.js";
import { newTrack, type Track } from "../../src/engine/track.js";
import { LogCollector } from "../support/engine-rig.js";

const NOW = 1_800_000_000_000;
const SECOND = 1_000;

function pacing(logs = new LogCollector()) {
  return new Pacing({
    budget: new RateBudget(),
    logger: logs.logger(),
    eventsIntervalMs: 30 * SECOND,
    todayIntervalMs: 60 * SECOND,
    discoveryIntervalMs: 15 * 60 * SECOND,
    jitter: 0,
    random: () => 0.5,
  });
}

function children(count: number): Track[] {
  return Array.from({ length: count }, (_, i) => newTrack({ id: `c${i}`, firstName: `C${i}` }, NOW));
}

describe("the pacing of a child's polls", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("plans each poll an interval after the last one planned, never before now", () => {
    const p = pacing();
    const [child] = children(1) as [Track];
    p.recompute(1);
    p.planEvents(child, NOW - 10 * SECOND, [child]);
    p.planToday(child, NOW - 10 * SECOND);
    expect([child.eventsDue - NOW, child.todayDue - NOW]).toEqual([20 * SECOND, 50 * SECOND]);
    // A poll that fell a whole interval behind goes now, not twice to catch up.
    p.planEvents(child, NOW - 45 * SECOND, [child]);
    expect(child.eventsDue).toBe(NOW);
  });

  it.each([
    {
      page: "a page of new facts",
      outcome: { delivered: 2, recent: 2, more: false, firstFactAt: NOW - 40 * SECOND },
      today: { dueIn: 0, staleSince: NOW - 40 * SECOND },
      nextPageIn: 30 * SECOND,
    },
    {
      page: "a full page of a backlog's replayed facts",
      outcome: { delivered: 100, recent: 0, more: true, firstFactAt: NOW - 3_600 * SECOND },
      today: { dueIn: 60 * SECOND, staleSince: null },
      nextPageIn: 1,
    },
    {
      page: "a full page ending in new facts",
      outcome: { delivered: 100, recent: 5, more: true, firstFactAt: NOW - 3_600 * SECOND },
      today: { dueIn: 0, staleSince: NOW - 3_600 * SECOND },
      nextPageIn: 1,
    },
    {
      page: "an empty page",
      outcome: { delivered: 0, recent: 0, more: false },
      today: { dueIn: 60 * SECOND, staleSince: null },
      nextPageIn: 30 * SECOND,
    },
  ])("after $page: today read at once only for new facts, the next page at once", (c) => {
    const p = pacing();
    const [child] = children(1) as [Track];
    p.recompute(1);
    p.planToday(child, NOW);
    p.planEvents(child, NOW, [child]);
    p.journalRead(child, NOW, c.outcome, [child]);
    expect({ dueIn: child.todayDue - NOW, staleSince: child.todayStaleSince }).toEqual(c.today);
    expect(child.eventsDue - NOW).toBe(c.nextPageIn);
  });

  it("stretches today's reads first when the children ask for more than the budget, and says so once", () => {
    const logs = new LogCollector();
    const p = pacing(logs);
    p.recompute(8);
    expect(p.intervals).toEqual({ eventsMs: 30 * SECOND, todayMs: 60 * SECOND });
    p.recompute(9);
    expect(p.intervals.eventsMs).toBe(30 * SECOND);
    expect(p.intervals.todayMs).toBeGreaterThan(60 * SECOND);
    expect(p.todayIntervals(3)).toBeCloseTo(3 * p.intervals.todayMs, 6);
    p.recompute(9);
    expect(logs.matching(/more children than the API's budget allows/)).toHaveLength(1);
    // Further still, both stretch, today's staying half as long again as the journal's.
    p.recompute(12);
    expect(p.intervals.eventsMs).toBeGreaterThan(30 * SECOND);
    expect(p.intervals.todayMs / p.intervals.eventsMs).toBeCloseTo(3, 5);
    expect(logs.matching(/more children than the API's budget allows/)).toHaveLength(2);
  });

  it("reads a busy child's journal sooner than the quiet ones' once the budget is short", () => {
    const p = pacing();
    const followed = children(20);
    p.recompute(followed.length);
    const [busy, quiet] = followed as [Track, Track];
    for (let minute = 0; minute < 30; minute++) {
      p.journalRead(busy, NOW, { delivered: 2, recent: 2, more: false, firstFactAt: NOW }, followed);
    }
    p.planEvents(quiet, NOW, followed);
    expect(busy.eventsEveryMs).toBeLessThan(quiet.eventsEveryMs ?? 0);
  });
});
