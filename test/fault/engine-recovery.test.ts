import { afterEach, describe, expect, it } from "vitest";

import type { Fault } from "../../src/simulator/index.js";
import { EngineRig, type LogLine } from "../support/engine-rig.js";

// How soon the engine follows the API again after a failure, and how often it says so: a failed
// listing of the children is tried again within seconds, a child refused once is read again
// within minutes, a child new or renamed in the app is seen within about five, and one source's
// lasting failure is logged once when it begins and once when it ends (issue 41, points 4 and 5).

const MINUTE = 60_000;
const START = "2026-11-21T09:00:00Z";

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The log lines of one source of reads: a child's journal or today, or the children's list. */
function linesOf(lines: readonly LogLine[], read: string, child?: string): LogLine[] {
  return lines.filter((line) => line.read === read && line.child === child);
}

describe("a failed listing of the children at start", () => {
  it.each<[string, number, Fault]>([
    ["three 503s", 3, { kind: "status", status: 503 }],
    [
      "a redirect",
      1,
      { kind: "status", status: 302, headers: { location: "https://elsewhere.example/api/v1/children" } },
    ],
    ["three cut-off answers", 3, { kind: "cut-off" }],
  ])(
    "%s: every child is followed within a minute of the API answering again",
    async (_name, count, fault) => {
      rig = await EngineRig.start({
        start: START,
        prepare: (sim) => {
          sim.failNext(count, fault, "/children");
          return undefined;
        },
      });
      const r = rig;
      const { ordinary, custody, unsynced } = r.sim.children;
      await r.time.advance(5 * MINUTE);

      const faulted = r.served(/^\/children$/).filter((req) => req.fault !== undefined);
      expect(faulted).toHaveLength(count);
      const fineFrom = (faulted.at(-1)?.at ?? 0) + 1;
      for (const child of [ordinary, custody, unsynced]) {
        const firstRead = r.served(new RegExp(`^/children/${child.id}/today`))[0];
        expect(firstRead, child.firstName).toBeDefined();
        expect((firstRead?.at ?? Infinity) - fineFrom).toBeLessThanOrEqual(MINUTE);
      }
      expect(
        r.engine
          .status()
          .children.map((c) => c.id)
          .sort(),
      ).toEqual([ordinary.id, custody.id, unsynced.id].sort());
      // One spell of the list: one line when it began, one when it ended.
      expect(linesOf(r.logs.matching(/cannot be read/), "children")).toHaveLength(1);
      expect(linesOf(r.logs.matching(/answers again/), "children")).toHaveLength(1);
    },
  );
});

describe("a child the token refuses (403)", () => {
  it("a single 403 on its today: read again within minutes, one line when suspended, one when back", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const { ordinary } = r.sim.children;
    const ofOrdinary = new RegExp(`^/children/${ordinary.id}/`);
    await r.time.advance(2 * MINUTE);
    r.sim.failNext(1, { kind: "status", status: 403 }, `/children/${ordinary.id}/today`);
    await r.time.until(() => r.served(ofOrdinary).some((req) => req.status === 403), 2 * MINUTE);
    const refusedAt = r.served(ofOrdinary).find((req) => req.status === 403)?.at ?? 0;
    await r.time.advance(10 * MINUTE);

    // Checked again within minutes: the first check comes a minute later (the brief allows 6).
    const next = r.served(ofOrdinary).find((req) => req.at > refusedAt);
    expect(next).toBeDefined();
    expect((next?.at ?? Infinity) - refusedAt).toBeLessThan(2 * MINUTE);
    expect(r.logs.matching(/no longer covers this child/)).toHaveLength(1);
    expect(r.logs.matching(/covered by the token again/)).toHaveLength(1);
    expect(r.sink.unavailable.filter((u) => u.childId === ordinary.id).map((u) => u.reason)).toEqual([
      "not_covered",
    ]);
    // Followed again: polled on cadence, published, among the status's children.
    expect(r.engine.status().children.map((c) => c.id)).toContain(ordinary.id);
    const since = refusedAt + 3 * MINUTE;
    expect(
      r.served(new RegExp(`^/children/${ordinary.id}/events`)).filter((q) => q.at > since).length,
    ).toBeGreaterThan(10);
    expect(r.sink.todays.filter((t) => t.childId === ordinary.id && t.at > since).length).toBeGreaterThan(5);
  });

  it("a lasting 403 on a listed child: checked again at 1, 2, 4 then every 5 minutes, logged once", async () => {
    rig = await EngineRig.start({ start: START, engine: { jitter: 0 } });
    const r = rig;
    const { ordinary } = r.sim.children;
    const ofOrdinary = new RegExp(`^/children/${ordinary.id}/`);
    await r.time.advance(2 * MINUTE);
    // Still listed, but every read of the child is refused.
    r.sim.failNext(100_000, { kind: "status", status: 403 }, ofOrdinary);
    await r.time.advance(30 * MINUTE);
    const refused = r.served(ofOrdinary).filter((req) => req.status === 403);
    const gaps = refused.slice(1).map((req, i) => Math.round((req.at - (refused[i]?.at ?? 0)) / MINUTE));
    expect(gaps.slice(0, 5)).toEqual([1, 2, 4, 5, 5]);
    expect(gaps.every((gap) => gap <= 5)).toBe(true);
    // The listings meanwhile (every 5 minutes) do not bring it back to be refused again.
    expect(r.served(/^\/children$/).length).toBeGreaterThanOrEqual(6);
    expect(r.logs.matching(/no longer covers this child/)).toHaveLength(1);
    expect(r.logs.matching(/covered by the token again/)).toHaveLength(0);
    expect(r.sink.unavailable.filter((u) => u.childId === ordinary.id).map((u) => u.reason)).toEqual([
      "not_covered",
    ]);
    expect(r.engine.status().children.map((c) => c.id)).not.toContain(ordinary.id);

    r.sim.clearFaults();
    const clearedAt = Date.now();
    await r.time.until(() => r.engine.status().children.some((c) => c.id === ordinary.id), 6 * MINUTE);
    expect(Date.now() - clearedAt).toBeLessThanOrEqual(5 * MINUTE + 1_000);
    expect(r.logs.matching(/covered by the token again/)).toHaveLength(1);
  }, 60_000);
});

describe("the household changed in the app", () => {
  it("a child added and a child renamed are seen within about 5 minutes; the demand counts the listing", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const { ordinary } = r.sim.children;
    await r.time.advance(MINUTE);
    const zoe = r.sim.addChild("Zoé");
    r.sim.renameChild(ordinary.id, "Léonie");
    const changedAt = Date.now();
    const named = () => new Map(r.engine.status().children.map((c) => [c.id, c.firstName]));
    await r.time.until(() => named().has(zoe.id) && named().get(ordinary.id) === "Léonie", 10 * MINUTE);
    expect(Date.now() - changedAt).toBeLessThanOrEqual(5 * MINUTE + 30_000);
    expect(new Map(r.sink.children.map((c) => [c.id, c.firstName])).get(ordinary.id)).toBe("Léonie");
    await r.time.advance(MINUTE);
    expect(r.sink.todays.some((t) => t.childId === zoe.id)).toBe(true);
    // Four children at 2 journal reads and 1 today read a minute, and the list every 5 minutes.
    expect(r.engine.status().demandPerMinute).toBe(4 * 3 + 0.2);
    expect(r.sink.lastStatus()?.demandPerMinute).toBe(4 * 3 + 0.2);
  });
});

describe("one child's lasting failure beside children read fine", () => {
  it("is logged once when it begins and once when it ends, whatever the other children do", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const { ordinary, custody } = r.sim.children;
    await r.time.advance(2 * MINUTE);
    r.sim.failNext(
      1_000_000,
      { kind: "status", status: 503 },
      new RegExp(`^/children/${ordinary.id}/events`),
    );
    r.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await r.time.advance(120 * MINUTE);
    // The others were read all along.
    expect(
      r.served(new RegExp(`^/children/${custody.id}/events`)).filter((q) => q.status === 200).length,
    ).toBeGreaterThan(200);
    expect(r.sink.eventIdsOf(ordinary.id)).toEqual([]);
    r.sim.clearFaults();
    await r.time.advance(2 * MINUTE);

    const failing = r.logs.matching(/cannot be read/);
    const again = r.logs.matching(/answers again/);
    expect(linesOf(failing, "events", ordinary.firstName)).toHaveLength(1);
    expect(linesOf(again, "events", ordinary.firstName)).toHaveLength(1);
    expect(failing).toHaveLength(1);
    expect(again).toHaveLength(1);
    expect(failing[0]?.level).toBe(40);
    expect(again[0]?.level).toBe(30);
    // The API as a whole answered: the status never said otherwise, the child's today stayed.
    expect(r.sink.statuses.every((s) => s.state === "ok" || s.state === "starting")).toBe(true);
    expect(r.sink.unavailable.filter((u) => u.childId === ordinary.id)).toEqual([]);
    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
  }, 180_000);
});
