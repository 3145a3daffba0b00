import { afterEach, describe, expect, it } from "vitest";
import {
  ACTIVITY_HALF_LIFE_MS,
  activityAt,
  BUSY_BEYOND_DEVIATIONS,
  journalStretches,
  noActivity,
  noteFacts,
  QUIET_CHILD_SLOWEST,
} from "../../src/engine/journal-share.js";
import { EngineRig } from "../support/engine-rig.js";

const MINUTE = 60_000;
const polls = (stretches: readonly number[]) => stretches.reduce((sum, s) => sum + 1 / s, 0);

describe("a child's recent facts", () => {
  it("count half after the half-life, and add up", () => {
    let activity = noteFacts(noActivity(0), 4, 0);
    expect(activityAt(activity, ACTIVITY_HALF_LIFE_MS)).toBeCloseTo(2, 9);
    activity = noteFacts(activity, 1, ACTIVITY_HALF_LIFE_MS);
    expect(activityAt(activity, 2 * ACTIVITY_HALF_LIFE_MS)).toBeCloseTo(1.5, 9);
    // A clock that went back does not make facts count more.
    expect(activityAt(activity, 0)).toBeCloseTo(3, 9);
  });
});

describe("the journal's polls shared among the children", () => {
  it.each([
    ["on cadence", [0, 40, 0], 1],
    ["a single child", [40], 2.5],
    ["children alike", [3, 3, 3, 3], 2],
    ["counts within chance of the mean", [0, 1, 2, 3, 4, 5, 6, 7], 2],
  ])("stays even: %s", (_case, activities, even) => {
    expect(journalStretches(activities, even)).toEqual(activities.map(() => even));
  });

  it("counts a child as busy at its third recent fact while the others have none", () => {
    // A burst's first poll or two: three facts for one child of ten, none for the others.
    expect(journalStretches([2, 0, 0, 0, 0, 0, 0, 0, 0, 0], 4)).toEqual(Array(10).fill(4));
    const stretches = journalStretches([3, 0, 0, 0, 0, 0, 0, 0, 0, 0], 4);
    expect(stretches[0]).toBeLessThan(4);
    expect(polls(stretches)).toBeCloseTo(10 / 4, 6);
  });

  it("reads a child that stands out sooner, the others a little later, with as many polls in all", () => {
    // Ten children at twice their interval; one with 12 recent facts, the others with none or one.
    const activities = [12, 0, 1, 0, 0, 1, 0, 0, 0, 0];
    const stretches = journalStretches(activities, 2);
    expect(polls(stretches)).toBeCloseTo(10 / 2, 6);
    const [busy, ...quiet] = stretches as [number, ...number[]];
    // sqrt(12 / 1.4) ≈ 2.9 times the others' pace would be faster than on cadence: held there.
    expect(busy).toBe(1);
    for (const s of quiet) expect(s).toBeCloseTo(quiet[0] as number, 9);
    expect(quiet[0]).toBeGreaterThan(2);
    expect(quiet[0]).toBeLessThan(QUIET_CHILD_SLOWEST * 2);
  });

  it("goes as one over the square root of the facts between busy children, the quiet ones at most ×3 slower", () => {
    // Two busy children (64 and 16 facts, the mean about 3.4), 30 quiet ones, a journal at ×8.
    const activities = [16 * 4, 16, ...Array.from({ length: 30 }, () => 1)];
    const mean = activities.reduce((a, b) => a + b) / activities.length;
    expect(16).toBeGreaterThan(mean + BUSY_BEYOND_DEVIATIONS * Math.sqrt(mean));
    const stretches = journalStretches(activities, 8);
    expect(polls(stretches)).toBeCloseTo(activities.length / 8, 6);
    const [busiest, busy, quiet] = stretches as [number, number, number];
    expect(busiest).toBeGreaterThan(1);
    expect(busy / busiest).toBeCloseTo(2, 6);
    // Against the quiet ones' one fact each: 8 and 4 times their pace.
    expect(quiet / busiest).toBeCloseTo(8, 6);
    expect(quiet).toBeGreaterThan(8);
    expect(quiet).toBeLessThanOrEqual(QUIET_CHILD_SLOWEST * 8);
  });
});

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const START = "2026-11-21T16:00:00Z";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Twenty children on one token (the journal stretched about ×2); `prepare` adds what a test needs. */
function twentyChildren(prepare?: (sim: EngineRig["sim"]) => void): Promise<EngineRig> {
  return EngineRig.start({
    start: START,
    prepare: (sim) => {
      for (let i = 3; i < 20; i++) sim.addChild(`Kid ${i}`);
      prepare?.(sim);
      return {};
    },
  });
}

/** The time between a child's journal polls, from the poll after `from` on (median). */
function medianJournalGap(r: EngineRig, childId: string, from: string): number {
  const at = r
    .served(new RegExp(`^/children/${childId}/events`))
    .map((request) => request.at)
    .filter((t) => t >= Date.parse(from));
  return median(at.slice(1).map((t, i) => t - (at[i] as number)));
}

describe("a full budget with one busy child", () => {
  it("reads the busy child's journal about every 30 s and the others' evenly, without a 429", async () => {
    rig = await twentyChildren();
    const busy = rig.sim.children.ordinary;
    // A cheer every 20 s for an hour: the evening routine of one child.
    for (let t = 0; t < 60 * MINUTE; t += 20_000) {
      rig.sim.addEvent(busy.id, { type: "behavior_validated" });
      await rig.time.advance(20_000);
    }
    const status = rig.engine.status();
    expect(status.stretch).toBeGreaterThan(1.5);
    // From the tenth minute: the busy child has stood out by then.
    const gapOf = (childId: string) => medianJournalGap(rig as EngineRig, childId, "2026-11-21T16:10:00Z");
    const busyGap = gapOf(busy.id);
    const others = status.children.filter((c) => c.id !== busy.id).map((c) => gapOf(c.id));
    // Evenly, every child would be read every 60 s (the journal at ×2).
    expect(busyGap).toBeLessThan(36_000);
    expect(busyGap).toBeLessThan(0.6 * Math.min(...others));
    // The others stay alike and far from the slowest a quiet child may be read.
    expect(Math.max(...others) / Math.min(...others)).toBeLessThan(1.2);
    expect(Math.max(...others)).toBeLessThan(QUIET_CHILD_SLOWEST * status.stretch * 30_000 * 0.5);
    expect(rig.served().filter((r) => r.status === 429)).toEqual([]);
  });

  it("does not count a catch-up: a day's facts read at once leave the share even", async () => {
    // The afternoon's facts, an hour and more before the bridge starts: a catch-up, marked replayed.
    rig = await twentyChildren((sim) =>
      sim.addEvents(sim.children.ordinary.id, 200, { at: "2026-11-21T14:30:00Z" }),
    );
    await rig.time.advance(40 * MINUTE);
    const status = rig.engine.status();
    expect(status.stretch).toBeGreaterThan(1.5);
    // From the first round's end: the catch-up's pages come back to back.
    const gaps = status.children.map((c) => medianJournalGap(rig as EngineRig, c.id, "2026-11-21T16:01:00Z"));
    expect(Math.max(...gaps) / Math.min(...gaps)).toBeLessThan(1.2);
  });
});
