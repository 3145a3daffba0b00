import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log/logger.js";
import { cursorStoreOn, openStore } from "../../src/store/index.js";
import { type HaEvent, type MqttRig, startMqttRig, testedHomeAssistantVersion } from "../lab/index.js";
import { BridgeProcess } from "../support/bridge-process.js";

const version = testedHomeAssistantVersion();

// A bridge whose data directory lost what it held (deleted, or a cursor that lies in the future)
// judges a child's journal against Home Assistant's delivery record of the child, in both
// publishing modes: nothing Home Assistant already had is fired again, and the facts after it
// come once, as news. (test/engine/record-recovery.test.ts covers the judgement's other cases.)

let rig: MqttRig | undefined;
const runs: BridgeProcess[] = [];

beforeAll(async () => {
  rig = await startMqttRig(version);
}, 900_000);

afterAll(async () => {
  for (const run of runs) await run.kill();
  await rig?.stop();
});

/** A child of its own per test, and the environment that follows only her. */
async function childAndEnv(name: string, publish: "rest" | "mqtt") {
  const r = rig as MqttRig;
  const child = r.sim.addChild(name, { planned: false });
  const dataDir = join(await mkdtemp(join(tmpdir(), "rf-lost-")), "data");
  const env = {
    ...r.bridgeEnv,
    REWARD_FACTS_PUBLISH: publish,
    REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
    REWARD_FACTS_CHILDREN: child.id,
    REWARD_FACTS_DATA_DIR: dataDir,
  };
  return { child, env, dataDir };
}

/** Runs the bridge until every fact of `ids` has fired, then two more poll rounds, then stops it. */
async function runUntilFired(env: Record<string, string>, events: HaEvent[], ids: readonly string[]) {
  const r = rig as MqttRig;
  const run = new BridgeProcess(env).start();
  runs.push(run);
  await r.ha.waitFor(() => ids.every((id) => events.some((e) => e.data.event_id === id)), {
    timeoutMs: 90_000,
    description: () => `facts ${ids.join(", ")} fired (output: ${run.text().slice(-2_000)})`,
  });
  // A repeat would come in the next two polls.
  await new Promise((resolve) => setTimeout(resolve, 22_000));
  expect(await run.stop()).toBe(0);
  return run;
}

const firedOf = (events: HaEvent[], id: string) => events.filter((e) => e.data.event_id === id);

describe.each(["rest", "mqtt"] as const)(
  `a lost data directory, %s mode, on Home Assistant ${version}`,
  (publish) => {
    it("deleted: nothing Home Assistant had fires again, the next fact fires once as news, and it is said", async () => {
      const r = rig as MqttRig;
      const { child, env, dataDir } = await childAndEnv(publish === "rest" ? "Noé" : "Inès", publish);
      const events = await r.ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2, 3].map(() => r.sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }));
        await runUntilFired(
          env,
          events.events,
          before.map((e) => e.id),
        );
        await rm(dataDir, { recursive: true, force: true });

        const after = r.sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
        const run = await runUntilFired(env, events.events, [after.id]);

        for (const fact of before) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id).map((e) => e.data.redelivered)).toEqual([false]);
        expect(run.text()).toContain("holds no delivery state");
        expect(run.text()).not.toContain(r.sim.tokens.household);
      } finally {
        await events.close();
      }
    }, 300_000);

    it("a cursor in the future: said, dropped, and the day's facts not fired again", async () => {
      const r = rig as MqttRig;
      const { child, env, dataDir } = await childAndEnv(publish === "rest" ? "Jules" : "Maël", publish);
      const events = await r.ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2].map(() => r.sim.addEvent(child.id, { type: "cheer_sent", cheer: "seen" }));
        await runUntilFired(
          env,
          events.events,
          before.map((e) => e.id),
        );
        const store = await openStore({ dataDir, logger: silentLogger() });
        await cursorStoreOn(store).set(
          child.id,
          "2100-01-01T00:00:00.000Z,00000000-0000-4000-8000-000000000000",
        );
        await store.close();

        const after = r.sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
        const run = await runUntilFired(env, events.events, [after.id]);

        for (const fact of [...before, after]) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id)[0]?.data.redelivered).toBe(false);
        expect(run.text()).toContain("cursor lies in the future");
      } finally {
        await events.close();
      }
    }, 300_000);
  },
);
