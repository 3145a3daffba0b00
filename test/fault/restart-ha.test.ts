import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { childEntityId, childEntityKinds, STATUS_ENTITY_ID } from "../../src/ha/entities/entities.js";
import { loggedEventIds, loggedEvents, startDeliveryRig, testedHomeAssistantVersion } from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { suiteOnRig } from "../support/lab-bridges.js";

// Five restarts of a real Home Assistant while facts flow: after each, every state is back
// within 10 s of RUNNING; in the end no fact was lost, and none repeated but one caught by a stop.
//
// Core's stop cancels its websocket tasks (core.py, stage 2, 2024.3 and 2026.11 alike), a
// delivery script among them, and the script ends between its steps: a fact sent at that very
// moment can fire with its record left unwritten. After the restart the bridge cannot tell it
// from one that never fired, and sends it again marked `redelivered` (the contract's "may have
// arrived before"). Seen once, in a fresh-clone CI run on 2024.3.3. That repeat, and only that
// one, is allowed: named by the bridge's warning, twice in all, first unmarked then marked.

const RESTARTS = 5;
const version = testedHomeAssistantVersion();

const lab = suiteOnRig(() => startDeliveryRig(version, { activity: { historyDays: 0, factsPerHour: 0 } }));
let bridge: BridgeProcess;

beforeAll(async () => {
  const { ha } = lab.rig;
  bridge = await lab.start();
  await ha.waitFor(async () => (await ha.getState(STATUS_ENTITY_ID))?.state === "ok", { timeoutMs: 60_000 });
});

describe(`Home Assistant ${version} restarts`, () => {
  it(`brings states back and keeps every fact exactly once across ${RESTARTS} restarts`, async () => {
    const { ha, sim } = lab.rig;
    const { ordinary, custody, unsynced } = sim.children;
    const entities = [
      STATUS_ENTITY_ID,
      ...["lea", "noah", "ines"].flatMap((slug) => childEntityKinds.map((kind) => childEntityId(slug, kind))),
    ];
    const producer = setInterval(() => {
      sim.addEvent(ordinary.id, { type: "behavior_validated" });
      sim.addEvent(custody.id, { type: "cheer_sent", cheer: "bravo" });
    }, 700);
    const backWithin: number[] = [];
    try {
      for (let i = 0; i < RESTARTS; i++) {
        await sleep(4_000);
        await ha.restart();
        const running = Date.now();
        await ha.waitFor(
          async () => (await Promise.all(entities.map((id) => ha.getState(id)))).every(Boolean),
          {
            timeoutMs: 10_000,
            intervalMs: 250,
          },
        );
        backWithin.push(Date.now() - running);
      }
      await sleep(3_000);
    } finally {
      clearInterval(producer);
    }
    for (const ms of backWithin) expect(ms).toBeLessThan(10_000);

    const journal = [ordinary, custody, unsynced].flatMap((child) => sim.journal(child.id).map((e) => e.id));
    await ha
      .waitFor(
        async () => {
          const logged = await loggedEventIds(ha);
          return journal.every((id) => logged.includes(id));
        },
        { timeoutMs: 40_000, intervalMs: 500 },
      )
      .catch(() => undefined);
    const arrivals = await loggedEvents(ha);
    const logged = arrivals.map((data) => String(data.event_id));
    // Each repeat with the `redelivered` of every arrival: marked repeats come from a redelivery.
    const repeated = [...new Set(logged.filter((id, i) => logged.indexOf(id) !== i))].map((id) => ({
      id,
      redelivered: arrivals.filter((data) => data.event_id === id).map((data) => data.redelivered),
    }));
    const missing = journal.filter((id) => !logged.includes(id));
    const inDoubtAtStop = bridge.output
      .filter((line) => line.includes("Home Assistant restarted while a fact was in doubt"))
      .map((line) => /"event":"([^"]+)"/.exec(line)?.[1]);
    const caughtByStop = repeated.filter(
      ({ id, redelivered }) =>
        inDoubtAtStop.includes(id) && redelivered.length === 2 && !redelivered[0] && redelivered[1] === true,
    );
    expect(caughtByStop.length).toBeLessThanOrEqual(RESTARTS);
    expect(
      { repeated: repeated.filter((repeat) => !caughtByStop.includes(repeat)), missing },
      `the bridge about Home Assistant:\n${bridge.output.filter((line) => /Home Assistant|redeliver/.test(line)).join("\n")}`,
    ).toEqual({ repeated: [], missing: [] });
    expect(journal.length).toBeGreaterThan(40);
    expect(bridge.running).toBe(true);
    // Clean stops: each record names the last fact fired, so nothing answered is sent again.
    expect(bridge.text()).not.toContain("without the last facts it had answered");
    expect(bridge.text()).not.toContain(sim.tokens.household);
    expect(bridge.text()).not.toContain(ha.token);
  }, 300_000);
});
