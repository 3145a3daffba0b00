import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readText } from "../../addon/supervisor-rules.js";
import type { EventRecorder } from "../../lab/index.js";
import { startMqttRig, testedHomeAssistantVersion } from "../../lab/index.js";
import { parseHaYaml, stringifyHaYaml } from "../../support/blueprint-yaml.js";
import { busiestMinute } from "../../support/busiest-minute.js";
import { suiteOnRig } from "../../support/lab-bridges.js";
import { readsOnlyPre2024_10Syntax, toPre2024_10Syntax } from "../../support/pre-2024-10-syntax.js";

// A child's two buttons (MQTT mode), pressed in a real Home Assistant as a parent does: Read now
// reads her day within seconds, at most once a minute, the API's limit kept; the test fact runs an
// automation made from the celebrate blueprint, once, and never again after the bridge restarts.

const version = testedHomeAssistantVersion();
const READ_NOW = "button.reward_facts_lea_read_now";
const TEST_FACT = "button.reward_facts_lea_test_fact";
const MINUTES = "sensor.reward_facts_lea_minutes_remaining";
const BLUEPRINT = "addon/blueprints/automation/reward_facts/celebrate.yaml";

const lab = suiteOnRig(() => startMqttRig(version));
let facts: EventRecorder;
let celebrated: EventRecorder;

beforeAll(async () => {
  facts = await lab.rig.ha.subscribeEvents("reward_facts_event");
  celebrated = await lab.rig.ha.subscribeEvents("rf_celebrated");
});

afterAll(async () => {
  await facts?.close();
  await celebrated?.close();
});

const press = (button: string) => lab.rig.ha.callService("button", "press", { entity_id: button });
const todayReads = (childId: string) =>
  lab.rig.sim.requests.filter((request) => request.path.startsWith(`/children/${childId}/today`));

/** The celebrate blueprint as a parent installs it, with an automation on Léa's device. */
async function celebrateOnLea(): Promise<void> {
  const { ha, sim } = lab.rig;
  const devices = await ha.wsCommand<Array<{ id: string; identifiers: string[][] }>>({
    type: "config/device_registry/list",
  });
  const lea = devices.find((device) =>
    device.identifiers.some(([, id]) => id === `reward_facts_${sim.children.ordinary.id}`),
  );
  if (!lea) throw new Error("Léa's device is not in Home Assistant's registry");
  const asUsersWrite = (document: unknown) =>
    readsOnlyPre2024_10Syntax(version) ? toPre2024_10Syntax(document) : document;
  const folder = join(ha.configDir, "blueprints/automation/reward_facts");
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, "celebrate.yaml"),
    stringifyHaYaml(asUsersWrite(parseHaYaml(readText(BLUEPRINT)))),
  );
  const automation = {
    id: "rf_celebrate_lea",
    alias: "Celebrate Léa",
    use_blueprint: {
      path: "reward_facts/celebrate.yaml",
      input: {
        child: lea.id,
        celebrate_actions: [
          {
            event: "rf_celebrated",
            event_data: { message: "{{ message }}", test: "{{ event.get('test', false) }}" },
          },
        ],
      },
    },
  };
  await writeFile(join(ha.configDir, "automations.yaml"), stringifyHaYaml([asUsersWrite(automation)]));
  await ha.callService("automation", "reload");
  const state = await ha.waitFor(() => ha.getState("automation.celebrate_lea"), {
    description: "the automation made from the blueprint",
  });
  expect(state.state).toBe("on");
}

describe(`a child's buttons in Home Assistant ${version}`, () => {
  it("Read now shows her new minutes within seconds, once a minute, never above the API's 30", async () => {
    const { ha, sim } = lab.rig;
    const lea = sim.children.ordinary;
    // Her day read every two minutes on its own: what changes sooner, the button did.
    const bridge = await lab.start({
      children: [lea.id],
      publish: "mqtt",
      env: { REWARD_FACTS_TEST_INTERVALS_MS: "60000,120000,5000" },
    });
    await ha.waitForState(READ_NOW, () => true, { timeoutMs: 120_000 });
    const before = await ha.waitForState(MINUTES, (state) => /^\d+$/.test(state.state), {
      timeoutMs: 60_000,
    });
    // Just after a routine reading: the next is two minutes away.
    const routine = todayReads(lea.id).length;
    // Two points: her next tier, which unlocks minutes.
    const homework = sim.behaviors(lea.id).find((behavior) => behavior.points >= 2);
    sim.addEvent(lea.id, { type: "behavior_validated", behaviorId: homework?.id });
    const pressedAt = Date.now();
    for (let i = 0; i < 5; i++) await press(READ_NOW);
    const after = await ha.waitForState(MINUTES, (state) => state.state !== before.state, {
      timeoutMs: 15_000,
    });
    expect(Number(after.state)).toBeGreaterThan(Number(before.state));
    const read = todayReads(lea.id).filter((request) => request.at >= pressedAt);
    expect(read.length).toBe(1);
    expect((read[0]?.at ?? 0) - pressedAt).toBeLessThan(10_000);
    expect(todayReads(lea.id).length).toBe(routine + 1);
    // Five presses within the minute: one reading, one line about the rest.
    expect(bridge.output.filter((line) => line.includes("Read now: the child's day"))).toHaveLength(1);
    expect(bridge.output.filter((line) => line.includes("pressed again within a minute"))).toHaveLength(1);
    expect(busiestMinute(sim.requests.map((request) => request.at))).toBeLessThanOrEqual(30);
    await bridge.stop();
  }, 300_000);

  it("the test fact runs an automation made from a blueprint, once, and not again after a restart", async () => {
    const { ha, sim } = lab.rig;
    const lea = sim.children.ordinary;
    const startedAt = Date.now();
    const bridge = await lab.start({ children: [lea.id], publish: "mqtt" });
    // Available as this run made it: the last run's stop made it unavailable, which Home Assistant
    // may show only now (a press on an unavailable button goes nowhere).
    await ha.waitForState(
      TEST_FACT,
      (state) => state.state !== "unavailable" && Date.parse(state.last_changed) >= startedAt,
      { timeoutMs: 120_000 },
    );
    await celebrateOnLea();
    await press(TEST_FACT);
    const fired = await ha
      .waitFor(() => facts.events.find((event) => event.data.test === true), {
        timeoutMs: 30_000,
        description: "the test fact on the bus",
      })
      .catch((error: unknown) => {
        throw new Error(
          `${(error as Error).message}\nthe bridge said:\n${bridge.output.slice(-30).join("\n")}`,
        );
      });
    expect(fired.data).toMatchObject({
      type: "cheer_sent",
      child_id: lea.id,
      child_name: "Léa",
      cheer: "bravo",
    });
    const ran = await ha.waitFor(() => celebrated.events.find((event) => event.data.test === true), {
      timeoutMs: 30_000,
      description: "the blueprint's automation run for the test fact",
    });
    expect(String(ran.data.message)).toContain("Léa");
    // Never recorded as delivered: no delivery record names it.
    const records = (await ha.getStates()).filter((state) =>
      state.entity_id.startsWith("input_text.reward_facts_"),
    );
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((state) => state.state === fired.data.event_id)).toHaveLength(0);

    // The bridge restarted; a real fact after it, through the journal, marks that it has read again.
    await bridge.stop();
    const again = lab.again(bridge);
    const real = sim.addEvent(lea.id, { type: "cheer_sent", cheer: "super" });
    await ha.waitFor(() => facts.events.find((event) => event.data.event_id === real.id), {
      timeoutMs: 60_000,
      description: "a real fact after the restart",
    });
    await ha.waitFor(() => again.output.some((line) => line.includes("following a child")), {
      description: "the restarted bridge following Léa",
    });
    expect(facts.events.filter((event) => event.data.test === true)).toHaveLength(1);
    expect(facts.events.filter((event) => event.data.event_id === fired.data.event_id)).toHaveLength(1);
    expect(celebrated.events.filter((event) => event.data.test === true)).toHaveLength(1);
    // A real fact carries no `test` key at all.
    expect(facts.events.find((event) => event.data.event_id === real.id)?.data).not.toHaveProperty("test");
    expect(again.output.join("\n")).not.toContain("test fact");
    await again.stop();
  }, 300_000);
});
