import { rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log/logger.js";
import { cursorStoreOn, openStore } from "../../src/store/index.js";
import { type HaEvent, startMqttRig, testedHomeAssistantVersion } from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { suiteOnRig } from "../support/lab-bridges.js";
import { afterReadings } from "../support/served-reads.js";

const version = testedHomeAssistantVersion();

// A bridge whose data directory lost what it held (deleted, or a cursor that lies in the future)
// judges a child's journal against Home Assistant's delivery record of the child, in both
// publishing modes: nothing Home Assistant already had is fired again, and the facts after it
// come once, as news. (test/engine/record-recovery.test.ts covers the judgement's other cases.)

const lab = suiteOnRig(() => startMqttRig(version));

/**
 * Runs the bridge (`start` starts it) until every fact of `ids` has fired, then two more journal
 * polls of the child (a repeat would come in them), then stops it.
 */
async function runUntilFired(
  childId: string,
  start: () => Promise<BridgeProcess> | BridgeProcess,
  events: HaEvent[],
  ids: readonly string[],
): Promise<BridgeProcess> {
  const { ha, sim } = lab.rig;
  const run = await start();
  await ha.waitFor(() => ids.every((id) => events.some((e) => e.data.event_id === id)), {
    timeoutMs: 90_000,
    description: () => `facts ${ids.join(", ")} fired (output: ${run.text().slice(-2_000)})`,
  });
  await afterReadings(sim, childId, "events", 2);
  expect(await run.stop()).toBe(0);
  return run;
}

const firedOf = (events: HaEvent[], id: string) => events.filter((e) => e.data.event_id === id);
const dataDirOf = (run: BridgeProcess) => run.env.REWARD_FACTS_DATA_DIR as string;

describe.each(["rest", "mqtt"] as const)(
  `a lost data directory, %s mode, on Home Assistant ${version}`,
  (publish) => {
    it("deleted: nothing Home Assistant had fires again, the next fact fires once as news, and it is said", async () => {
      const { ha, sim } = lab.rig;
      const child = sim.addChild(publish === "rest" ? "Noé" : "Inès", { planned: false });
      const events = await ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2, 3].map(() => sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }));
        const first = await runUntilFired(
          child.id,
          () => lab.start({ children: [child.id], publish }),
          events.events,
          before.map((e) => e.id),
        );
        await rm(dataDirOf(first), { recursive: true, force: true });

        const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
        const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);

        for (const fact of before) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id).map((e) => e.data.redelivered)).toEqual([false]);
        expect(run.text()).toContain("holds no delivery state");
        expect(run.text()).not.toContain(sim.tokens.household);
      } finally {
        await events.close();
      }
    }, 300_000);

    it("a cursor in the future: said, dropped, and the day's facts not fired again", async () => {
      const { ha, sim } = lab.rig;
      const child = sim.addChild(publish === "rest" ? "Jules" : "Maël", { planned: false });
      const events = await ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2].map(() => sim.addEvent(child.id, { type: "cheer_sent", cheer: "seen" }));
        const first = await runUntilFired(
          child.id,
          () => lab.start({ children: [child.id], publish }),
          events.events,
          before.map((e) => e.id),
        );
        const store = await openStore({ dataDir: dataDirOf(first), logger: silentLogger() });
        await cursorStoreOn(store, silentLogger()).set(
          child.id,
          "2100-01-01T00:00:00.000Z,00000000-0000-4000-8000-000000000000",
        );
        await store.close();

        const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
        const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);

        for (const fact of [...before, after]) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id)[0]?.data.redelivered).toBe(false);
        expect(run.text()).toContain("cursor lies in the future");
      } finally {
        await events.close();
      }
    }, 300_000);
  },
);
