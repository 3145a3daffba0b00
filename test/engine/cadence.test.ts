import { afterEach, describe, expect, it } from "vitest";
import { CADENCE_SHARE, cadenceFor, TODAY_STRETCHES_FIRST_UP_TO } from "../../src/engine/cadence.js";
import { DISCOVERY_INTERVAL_MS } from "../../src/engine/listing-schedule.js";
import { EngineRig } from "../support/engine-rig.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] as number));
}

describe("cadence per child", () => {
  it("polls events every 30 s and today every 60 s with jitter, the first round at once", async () => {
    rig = await EngineRig.start({ start: "2026-11-21T08:00:00Z" });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(HOUR);

    const events = rig.served(new RegExp(`^/children/${ordinary.id}/events`)).map((r) => r.at);
    const today = rig.served(new RegExp(`^/children/${ordinary.id}/today`)).map((r) => r.at);
    const start = Date.parse("2026-11-21T08:00:00Z");
    expect(events[0]).toBeLessThan(start + 10_000);
    expect(today[0]).toBeLessThan(start + 10_000);
    // ±10 % jitter around the interval (and the 1 s steps of virtual time), about the right count.
    for (const gap of gaps(events)) expect(gap).toBeGreaterThanOrEqual(26_000);
    for (const gap of gaps(events)) expect(gap).toBeLessThanOrEqual(34_000);
    for (const gap of gaps(today)) expect(gap).toBeGreaterThanOrEqual(53_000);
    for (const gap of gaps(today)) expect(gap).toBeLessThanOrEqual(67_000);
    expect(events.length).toBeGreaterThanOrEqual(115);
    expect(events.length).toBeLessThanOrEqual(125);
    expect(today.length).toBeGreaterThanOrEqual(57);
    expect(today.length).toBeLessThanOrEqual(63);
    // Jitter really moves the polls: not every gap is the same.
    expect(new Set(gaps(events)).size).toBeGreaterThan(10);
  });

  it("takes configured intervals", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T08:00:00Z",
      engine: { eventsIntervalMs: 60_000, todayIntervalMs: 120_000, jitter: 0 },
    });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(HOUR);
    const events = rig.served(new RegExp(`^/children/${ordinary.id}/events`)).map((r) => r.at);
    const today = rig.served(new RegExp(`^/children/${ordinary.id}/today`)).map((r) => r.at);
    for (const gap of gaps(events)) expect(gap).toBeCloseTo(60_000, -4);
    for (const gap of gaps(today)) expect(gap).toBeCloseTo(120_000, -4);
  });

  it("reads today again right after a new fact, and right after a running session ends", async () => {
    rig = await EngineRig.start({ start: "2026-11-21T08:00:00Z", engine: { jitter: 0 } });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(5 * MINUTE);
    const factAt = Date.now();
    rig.sim.addEvent(ordinary.id, { type: "session_started", minutes: 7 });
    await rig.time.until(() => rig?.sink.eventIdsOf(ordinary.id).length === 1, MINUTE);
    const deliveredAt = rig.sink.events[0]?.at as number;
    // The today read comes within seconds of the event poll, not at its 60 s turn.
    await rig.time.advance(5_000);
    const todayAfter = rig
      .served(new RegExp(`^/children/${ordinary.id}/today`))
      .filter((r) => r.at >= factAt);
    expect(todayAfter[0]?.at).toBeLessThanOrEqual(deliveredAt + 3_000);

    const now = rig.sim.today(ordinary.id);
    const endsAt = Date.parse((now.isMyDay && now.session?.endsAt) || "");
    expect(endsAt).toBeGreaterThan(Date.now());
    await rig.time.advance(10 * MINUTE);
    const afterEnd = rig.served(new RegExp(`^/children/${ordinary.id}/today`)).filter((r) => r.at >= endsAt);
    expect(afterEnd[0]?.at).toBeLessThanOrEqual(endsAt + 5_000);
    // The today published right after the end no longer shows the session running.
    const published = rig.sink.todays.filter((t) => t.childId === ordinary.id && t.at >= endsAt)[0]?.today;
    expect(published?.isMyDay && published.session?.running).toBeFalsy();
  });
});

describe("the cadence's share of the budget", () => {
  const defaults = {
    eventsIntervalMs: 30_000,
    todayIntervalMs: 60_000,
    discoveryIntervalMs: DISCOVERY_INTERVAL_MS,
  };
  const discovery = 1 / 5;
  const planned = (budget: number) => budget * CADENCE_SHARE;
  const first = TODAY_STRETCHES_FIRST_UP_TO;
  /** Journal and today factors once both stretch: 2 + 1/first requests a minute per child. */
  const bothStretched = (children: number, budget: number): [number, number] => {
    const stretch = (children * (2 + 1 / first)) / (planned(budget) - discovery);
    return [stretch, first * stretch];
  };
  it.each([
    // children, budget a minute, journal stretch, today stretch: 2 journal polls and 1 today read
    // a minute per child, and the children's list every 5 min.
    [1, 28, 1, 1],
    [8, 28, 1, 1],
    // The today reads alone give way: what the journal and the list leave them.
    [9, 28, 1, 9 / (planned(28) - 18 - discovery)],
    // Past TODAY_STRETCHES_FIRST_UP_TO, both, today staying that far behind.
    [10, 28, ...bothStretched(10, 28)],
    [30, 28, ...bothStretched(30, 28)],
    // A token shared with another client: the budget it leaves, the same share of it.
    [3, 8, ...bothStretched(3, 8)],
  ])(
    "%i children on a budget of %i a minute: journal ×%f, today ×%f",
    (children, budgetPerMinute, stretch, todayStretch) => {
      const cadence = cadenceFor(children, { ...defaults, budgetPerMinute });
      expect(cadence.stretch).toBeCloseTo(stretch, 6);
      expect(cadence.todayStretch).toBeCloseTo(todayStretch, 6);
      expect(cadence.demandPerMinute).toBeCloseTo(children * 3 + discovery, 6);
    },
  );

  it.each([
    // Three children at 2 journal polls and 1 today read a minute each, and the list.
    ["every 5 minutes by default", {}, 3 * 3 + 0.2, 1],
    ["every minute, as the engine's option says", { discoveryIntervalMs: MINUTE }, 3 * 3 + 1, 3],
  ])(
    "counts the children's list, read %s, in the status's demand",
    async (_name, engine, demand, listings) => {
      rig = await EngineRig.start({ start: "2026-11-21T08:00:00Z", engine });
      await rig.time.advance(2.5 * MINUTE);
      expect(rig.engine.status().demandPerMinute).toBe(demand);
      expect(rig.served(/^\/children$/)).toHaveLength(listings);
    },
  );

  it("plans the share of the budget exactly once stretched, leaving the rest for the reads no interval plans", () => {
    expect(CADENCE_SHARE).toBeLessThan(1);
    for (const children of [9, 10, 12, 20, 30]) {
      const { stretch, todayStretch } = cadenceFor(children, { ...defaults, budgetPerMinute: 28 });
      const asked = children * (2 / stretch + 1 / todayStretch) + discovery;
      expect(asked).toBeCloseTo(planned(28), 6);
      // The journal never stretches more than the today read, nor the today read past its lead.
      expect(todayStretch).toBeGreaterThanOrEqual(stretch);
      expect(todayStretch / stretch).toBeLessThanOrEqual(first + 1e-9);
    }
  });
});

describe("a full budget: today's routine read gives way first", () => {
  it("keeps 10 children's journal on about 30 s and reads their today about every 90 s", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T08:00:00Z",
      prepare: (sim) => {
        for (let i = 3; i < 10; i++) sim.addChild(`Kid ${i}`);
        return {};
      },
    });
    await rig.time.advance(HOUR);
    const status = rig.engine.status();
    expect(status.children).toHaveLength(10);
    expect(status.todayStretch).toBeGreaterThan(1.45);
    expect(status.stretch).toBeLessThan(1.02);
    expect(rig.logs.matching(/today reads stretched ×1\.5\d, journal polls ×1\.0\d/).length).toBeGreaterThan(
      0,
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    for (const child of status.children) {
      // From the second round: the first goes out at once, in whatever order the budget lets it.
      const events = rig
        .served(new RegExp(`^/children/${child.id}/events`))
        .map((r) => r.at)
        .slice(1);
      const today = rig
        .served(new RegExp(`^/children/${child.id}/today`))
        .map((r) => r.at)
        .slice(1);
      // ±10 % jitter around 30 s × 1.005 and 60 s × 1.51.
      expect(median(gaps(events))).toBeGreaterThan(27_000);
      expect(median(gaps(events))).toBeLessThan(33_500);
      expect(median(gaps(today))).toBeGreaterThan(81_000);
      expect(median(gaps(today))).toBeLessThan(100_000);
    }
    expect(rig.served().filter((r) => r.status === 429)).toEqual([]);
  });
});

describe("one rate budget per token", () => {
  it.each([1, 3, 10, 20])(
    "never earns a 429 with %i children over 6 simulated hours",
    async (children) => {
      rig = await EngineRig.start({
        start: "2026-11-21T06:00:00Z",
        simulator: { activity: { historyDays: 0, factsPerHour: 6 } },
        prepare: (sim) => {
          // The demo household has three children: a filter for fewer, new children for more.
          for (let i = 3; i < children; i++) sim.addChild(`Kid ${i}`);
          const demo = [sim.children.ordinary, sim.children.custody, sim.children.unsynced];
          return children < 3 ? { childrenFilter: demo.slice(0, children).map((c) => c.id) } : {};
        },
      });
      await rig.time.advance(6 * HOUR);

      expect(rig.served().filter((r) => r.status === 429)).toEqual([]);
      expect(rig.maxInAnyMinute()).toBeLessThanOrEqual(30);
      const status = rig.engine.status();
      expect(status.rateLimitedCount).toBe(0);
      expect(status.children).toHaveLength(children);

      // Fair: every child is read about as often as the others.
      const todayCounts = status.children.map(
        (c) => rig?.served(new RegExp(`^/children/${c.id}/today`)).length ?? 0,
      );
      expect(Math.min(...todayCounts)).toBeGreaterThan(0.8 * Math.max(...todayCounts));
      if (children >= 10) {
        expect(status.stretch).toBeGreaterThan(1);
        expect(rig.logs.matching(/stretched/).length).toBeGreaterThan(0);
      } else {
        expect(status.stretch).toBe(1);
        // On cadence: about 6 h × 60 today reads per child.
        expect(Math.min(...todayCounts)).toBeGreaterThan(330);
      }
      // Every fact of every child arrived once, in order; only the last minutes' may be on their way.
      for (const child of status.children) {
        const journal = rig.sim.journal(child.id);
        const delivered = rig.sink.eventIdsOf(child.id);
        expect(delivered).toEqual(journal.slice(0, delivered.length).map((e) => e.id));
        const late = journal.slice(delivered.length);
        for (const event of late) expect(Date.parse(event.at)).toBeGreaterThan(Date.now() - 3 * MINUTE);
      }
    },
    180_000,
  );
});
