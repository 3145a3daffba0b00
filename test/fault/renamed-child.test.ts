import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MqttRig, startMqttRig, testedHomeAssistantVersion } from "../lab/index.js";
import { BridgeProcess } from "../support/bridge-process.js";

const version = testedHomeAssistantVersion();

// A child's slug is settled when the bridge first publishes her: renamed in the app, she keeps
// her entity ids and her facts' `child`, in both publishing modes, across restarts, and when the
// data directory is lost too (the bridge takes the slug back from what Home Assistant shows).

let rig: MqttRig | undefined;
const runs: BridgeProcess[] = [];

beforeAll(async () => {
  rig = await startMqttRig(version);
}, 900_000);

afterAll(async () => {
  for (const run of runs) await run.kill();
  await rig?.stop();
});

describe.each([
  ["rest", "Bérénice", "berenice"],
  ["mqtt", "Léonie", "leonie"],
] as const)(`a child renamed in the app, %s mode, on Home Assistant ${version}`, (publish, name, slug) => {
  it("keeps her entity ids and her facts' child; child_name follows the app", async () => {
    const r = rig as MqttRig;
    const child = r.sim.addChild(name, { planned: false });
    const dataDir = join(await mkdtemp(join(tmpdir(), "rf-rename-")), "data");
    const env = {
      ...r.bridgeEnv,
      REWARD_FACTS_PUBLISH: publish,
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
      REWARD_FACTS_CHILDREN: child.id,
      REWARD_FACTS_DATA_DIR: dataDir,
    };
    const minutes = `sensor.reward_facts_${slug}_minutes_remaining`;
    const renamedMinutes = `sensor.reward_facts_${slug}_rose_minutes_remaining`;
    const events = await r.ha.subscribeEvents("reward_facts_event");

    /** One run of the bridge until the fact fires and her entity shows `shown` as her name. */
    const runWithFact = async (shown: string) => {
      const fact = r.sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
      const run = new BridgeProcess(env).start();
      runs.push(run);
      const fired = await r.ha.waitFor(() => events.events.find((e) => e.data.event_id === fact.id), {
        timeoutMs: 90_000,
        description: () => `the fact fired (output: ${run.text().slice(-2_000)})`,
      });
      await r.ha.waitForState(minutes, (s) => s.attributes.child_name === shown, { timeoutMs: 30_000 });
      expect(await r.ha.getState(renamedMinutes)).toBeNull();
      expect(await run.stop()).toBe(0);
      return fired.data;
    };

    try {
      expect((await runWithFact(name)).child).toBe(slug);

      r.sim.renameChild(child.id, `${name} Rose`);
      const renamed = await runWithFact(`${name} Rose`);
      expect(renamed).toMatchObject({ child: slug, child_name: `${name} Rose` });

      // The data directory lost as well: the slug comes back from Home Assistant.
      await rm(dataDir, { recursive: true, force: true });
      const lost = await runWithFact(`${name} Rose`);
      expect(lost).toMatchObject({ child: slug, child_name: `${name} Rose` });
    } finally {
      await events.close();
    }
  }, 400_000);
});
