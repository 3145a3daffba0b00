import { rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { startMqttRig, testedHomeAssistantVersion } from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { suiteOnRig } from "../support/lab-bridges.js";

const version = testedHomeAssistantVersion();

// A child's slug is settled when the bridge first publishes her: renamed in the app, she keeps
// her entity ids and her facts' `child`, in both publishing modes, across restarts, and when the
// data directory is lost too (the bridge takes the slug back from what Home Assistant shows).

const lab = suiteOnRig(() => startMqttRig(version));

describe.each([
  ["rest", "Bérénice", "berenice"],
  ["mqtt", "Léonie", "leonie"],
] as const)(`a child renamed in the app, %s mode, on Home Assistant ${version}`, (publish, name, slug) => {
  it("keeps her entity ids and her facts' child; child_name follows the app", async () => {
    const { ha, sim } = lab.rig;
    const child = sim.addChild(name, { planned: false });
    const minutes = `sensor.reward_facts_${slug}_minutes_remaining`;
    const renamedMinutes = `sensor.reward_facts_${slug}_rose_minutes_remaining`;
    const events = await ha.subscribeEvents("reward_facts_event");

    /**
     * One run of the bridge (`start` starts it) until the fact fires and her entity shows `shown`
     * as her name; the run, and the fact's bus event.
     */
    const runWithFact = async (shown: string, start: () => Promise<BridgeProcess> | BridgeProcess) => {
      const fact = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
      const run = await start();
      const fired = await ha.waitFor(() => events.events.find((e) => e.data.event_id === fact.id), {
        timeoutMs: 90_000,
        description: () => `the fact fired (output: ${run.text().slice(-2_000)})`,
      });
      await ha.waitForState(minutes, (s) => s.attributes.child_name === shown, { timeoutMs: 30_000 });
      expect(await ha.getState(renamedMinutes)).toBeNull();
      expect(await run.stop()).toBe(0);
      return { run, fired: fired.data };
    };

    try {
      const first = await runWithFact(name, () => lab.start({ children: [child.id], publish }));
      expect(first.fired.child).toBe(slug);

      sim.renameChild(child.id, `${name} Rose`);
      const renamed = await runWithFact(`${name} Rose`, () => lab.again(first.run));
      expect(renamed.fired).toMatchObject({ child: slug, child_name: `${name} Rose` });

      // The data directory lost as well: the slug comes back from Home Assistant.
      await rm(first.run.env.REWARD_FACTS_DATA_DIR as string, { recursive: true, force: true });
      const lost = await runWithFact(`${name} Rose`, () => lab.again(first.run));
      expect(lost.fired).toMatchObject({ child: slug, child_name: `${name} Rose` });
    } finally {
      await events.close();
    }
  }, 400_000);
});
