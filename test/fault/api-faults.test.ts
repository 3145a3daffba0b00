import { afterAll, describe, expect, it } from "vitest";

import { EngineRig } from "../support/engine-rig.js";

// Every fault the simulator can produce, one after another in one long run of the engine:
// it keeps running, logs each transition once, recovers, and delivers every fact exactly once.

const MINUTE = 60_000;
let rig: EngineRig | undefined;
afterAll(async () => {
  await rig?.close();
});

describe("API faults, one after another", () => {
  it("keeps running through all of them and recovers", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T07:00:00Z",
      simulator: { activity: { historyDays: 0, factsPerHour: 30 } },
    });
    const r = rig;
    const { ordinary, custody, unsynced } = r.sim.children;
    const phase = async (minutes: number) => r.time.advance(minutes * MINUTE);
    r.time.stuckMs = 50;

    await phase(5);
    // A burst of 5xx, then timeouts, then bodies cut off, then malformed JSON.
    r.sim.failNext(12, { kind: "status", status: 503 });
    await phase(3);
    r.sim.failNext(4, { kind: "slow", delayMs: 60_000 });
    await phase(3);
    r.sim.failNext(6, { kind: "cut-off" });
    await phase(3);
    r.sim.failNext(3, { kind: "malformed-json" });
    await phase(3);
    // A fact of a type this bridge does not know yet.
    r.sim.addRawEvent(ordinary.id, { type: "sticker_won", sticker: "unicorn" });
    await phase(2);
    // A storm of 429s (the API's own, whatever its window).
    r.sim.failNext(5, { kind: "status", status: 429 });
    await phase(8);
    // Token revoked, then restored.
    r.sim.revokeToken(r.token);
    await phase(12);
    r.sim.restoreToken(r.token);
    await phase(12);
    // A child moved out, then back; rules removed, then synced again.
    r.sim.moveChildOut(custody.id);
    r.sim.unsyncRules(ordinary.id);
    await phase(5);
    r.sim.moveChildIn(custody.id);
    r.sim.syncRules(ordinary.id);
    r.sim.syncRules(unsynced.id);
    await phase(20);

    // Still running, back to ok, every child readable, every fact once and in order.
    const status = r.engine.status();
    expect(status.state).toBe("ok");
    expect(status.children.map((c) => c.id).sort()).toEqual([ordinary.id, custody.id, unsynced.id].sort());
    for (const child of [ordinary, custody, unsynced]) {
      const delivered = r.sink.eventIdsOf(child.id);
      const journal = r.sim.journal(child.id).map((e) => e.id);
      expect(delivered).toEqual(journal.slice(0, delivered.length));
      expect(journal.length - delivered.length).toBeLessThanOrEqual(2);
      const lastToday = r.sink.todays.filter((t) => t.childId === child.id).at(-1);
      const lastUnavailable = r.sink.unavailable.filter((u) => u.childId === child.id).at(-1);
      expect(lastToday?.at ?? 0).toBeGreaterThan(lastUnavailable?.at ?? 0);
    }
    // Each transition logged once.
    expect(r.logs.matching(/rejected the token/)).toHaveLength(1);
    expect(r.logs.matching(/works again/)).toHaveLength(1);
    expect(r.logs.matching(/no longer covers this child/)).toHaveLength(1);
    expect(r.logs.matching(/covered by the token again/)).toHaveLength(1);
    expect(r.logs.matching(/does not know yet/)).toHaveLength(1);
    expect(r.logs.matching(/answered 429/).length).toBeGreaterThanOrEqual(1);
    expect(r.logs.matching(/answered 429/).length).toBeLessThanOrEqual(5);
    const unreachable = r.logs.matching(/cannot be read/).length;
    expect(unreachable).toBeGreaterThanOrEqual(1);
    expect(r.logs.matching(/answers again/)).toHaveLength(unreachable);
    const notSynced = r.sink.unavailable.filter((u) => u.reason === "rules_not_synced");
    expect(notSynced.filter((u) => u.childId === ordinary.id)).toHaveLength(1);
    // The token never reached a log line.
    expect(r.logs.raw.join("\n")).not.toContain(r.token);
  }, 120_000);
});
