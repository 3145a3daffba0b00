import { afterEach, describe, expect, it } from "vitest";

import { EngineRig, type LogLine } from "../support/engine-rig.js";

// How often the engine says the API fails: one source's lasting failure is logged once when it
// begins and once when it ends (issue 41, point 5).

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
