import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { connectAsync } from "mqtt";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/load-config.js";
import { childEntityId, STATUS_ENTITY_ID } from "../../../src/ha/entities/entity-names.js";
import { createLogger } from "../../../src/log/logger.js";
import { runRemoval } from "../../../src/run-removal.js";
import { type HomeAssistantInstance, startMqttRig, testedHomeAssistantVersion } from "../../lab/index.js";
import { bridgeFromSources } from "../../support/bridge-process.js";
import { suiteOnRig } from "../../support/lab-bridges.js";

// The removal step before uninstalling (`npm start -- --remove`, the add-on's
// remove_from_home_assistant), run as users run it: the real bridge's process, against a real
// Home Assistant and a real Mosquitto, after a real bridge published there in MQTT mode (devices,
// registry entities, retained configs and states, delivery records, the dashboard) and in REST
// mode. Afterwards nothing of the bridge's is left, and what is not the bridge's is all still there.

const version = testedHomeAssistantVersion();

const lab = suiteOnRig(() => startMqttRig(version));
let ha: HomeAssistantInstance;

beforeAll(() => {
  ha = lab.rig.ha;
});

/** The removal step in this process, with the bridge's configuration from `env`; its log as text. */
async function removeInProcess(
  env: Record<string, string>,
  options: { force?: boolean } = {},
): Promise<{ code: number; text: () => string }> {
  const config = loadConfig(env);
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString("utf8"));
      callback();
    },
  });
  const secrets = [config.options.api_token, config.homeAssistant?.token ?? "", lab.rig.user.password];
  const logger = createLogger({ level: "info", destination, secrets });
  const code = await runRemoval(config, logger, AbortSignal.timeout(240_000), options);
  return { code, text: () => lines.join("") };
}

/** Every retained message on the broker, as another client reads it. */
async function retained(): Promise<Map<string, string>> {
  const reader = await connectAsync(lab.rig.broker.url, {
    ...lab.rig.user,
    clientId: `reader-${Date.now()}`,
  });
  const found = new Map<string, string>();
  try {
    reader.on("message", (topic, payload, packet) => {
      if (packet.retain) found.set(topic, payload.toString());
    });
    await reader.subscribeAsync("#");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  } finally {
    await reader.endAsync();
  }
  return found;
}

async function publishRetained(topic: string, payload: string): Promise<void> {
  const writer = await connectAsync(lab.rig.broker.url, {
    ...lab.rig.user,
    clientId: `writer-${Date.now()}`,
  });
  await writer.publishAsync(topic, payload, { qos: 1, retain: true });
  await writer.endAsync();
}

const bridgeTopic = (topic: string) =>
  topic.startsWith("reward_facts/") || /^homeassistant\/[^/]+\/reward_facts_[^/]*\//.test(topic);

interface Everything {
  topics: string[];
  entities: string[];
  devices: string[];
  helpers: string[];
  dashboards: string[];
  notifications: string[];
  states: string[];
}

/** What Home Assistant and the broker hold of the bridge (and of the bystanders this suite set). */
async function everything(): Promise<Everything> {
  const [topics, entities, devices, helpers, dashboards, notifications, states] = await Promise.all([
    retained(),
    ha.wsCommand<Array<{ entity_id: string; platform: string; unique_id: string }>>({
      type: "config/entity_registry/list",
    }),
    ha.wsCommand<Array<{ identifiers: string[][] }>>({ type: "config/device_registry/list" }),
    ha.wsCommand<Array<{ id: string }>>({ type: "input_text/list" }),
    ha.wsCommand<Array<{ url_path: string }>>({ type: "lovelace/dashboards/list" }),
    ha.wsCommand<Array<{ notification_id: string }>>({ type: "persistent_notification/get" }),
    ha.getStates(),
  ]);
  return {
    topics: [...topics.keys()].filter((topic) => bridgeTopic(topic) || topic.includes("bystander")),
    entities: entities
      .filter((e) => e.unique_id?.startsWith("reward_facts_") || e.entity_id.includes("reward_facts"))
      .map((e) => e.entity_id),
    devices: devices
      .flatMap((d) => d.identifiers.map(([, id]) => id ?? ""))
      .filter((id) => id.startsWith("reward_facts")),
    helpers: helpers.map((h) => h.id).filter((id) => id.startsWith("reward_facts")),
    dashboards: dashboards.map((d) => d.url_path).filter((path) => path.startsWith("reward-facts")),
    notifications: notifications.map((n) => n.notification_id).filter((id) => id.startsWith("reward_facts")),
    states: states.map((s) => s.entity_id).filter((id) => id.includes("reward_facts")),
  };
}

describe(`the removal step on Home Assistant ${version}`, () => {
  it("removes everything a bridge made in MQTT mode and leaves the rest", async () => {
    const run = await lab.start({ publish: "mqtt", env: { REWARD_FACTS_DASHBOARD: "true" } });
    const facts = await ha.subscribeEvents("reward_facts_event");
    await ha.waitFor(
      async () => {
        const now = await everything();
        return (
          now.entities.includes(childEntityId("lea", "minutes_remaining")) &&
          now.helpers.length >= 2 &&
          now.dashboards.length === 1
        );
      },
      { timeoutMs: 120_000, description: "the bridge's entities, records and dashboard" },
    );
    // Labels (2024.4 and later): the children's label, which a person also put on an area of theirs,
    // stays; the helpers' category, worn by the bridge's helpers only, goes with them.
    const labelled = version.localeCompare("2024.4", undefined, { numeric: true }) >= 0;
    const organized = async () => ({
      labels: (
        await ha.wsCommand<Array<{ label_id: string; name: string }>>({ type: "config/label_registry/list" })
      ).map((l) => l.name),
      categories: (
        await ha.wsCommand<Array<{ name: string }>>({
          type: "config/category_registry/list",
          scope: "helpers",
        })
      ).map((c) => c.name),
    });
    if (labelled) {
      const children = await ha.waitFor(
        async () =>
          (
            await ha.wsCommand<Array<{ label_id: string; name: string }>>({
              type: "config/label_registry/list",
            })
          ).find((l) => l.name === "Children"),
        { description: "the children's label" },
      );
      await ha.wsCommand({
        type: "config/area_registry/create",
        name: "Playroom",
        labels: [children.label_id],
      });
      await ha.waitFor(async () => (await organized()).categories.includes("Reward Facts bridge"), {
        description: "the helpers' category",
      });
    }
    // A fact delivered just before the removal: a bridge started again must not judge it lost.
    const lea = lab.rig.sim.children.ordinary;
    const cheer = lab.rig.sim.addEvent(lea.id, { type: "cheer_sent", cheer: "bravo" });
    await ha.waitFor(() => facts.events.find((event) => event.data.event_id === cheer.id), {
      timeoutMs: 60_000,
      description: "a fact delivered before the removal",
    });
    expect(await run.stop()).toBe(0);
    // A child an earlier run announced, no longer in the household (not in this data directory),
    // and what is not the bridge's: another integration's config, the demo's state, a notification.
    const gone = "reward_facts_gone1";
    await publishRetained(
      `homeassistant/sensor/${gone}/points/config`,
      JSON.stringify({
        unique_id: `${gone}_points`,
        name: "Points",
        state_topic: "reward_facts/gone1/points/state",
        device: { identifiers: [gone], name: "Gone" },
        origin: { name: "reward-facts-bridge" },
      }),
    );
    await publishRetained("reward_facts/gone1/points/state", "4");
    await publishRetained(
      "homeassistant/sensor/bystander/temp/config",
      JSON.stringify({ unique_id: "bystander_temp", name: "Temp", state_topic: "bystander/temp" }),
    );
    await ha.api("POST", "/api/states/sensor.reward_facts_demo_lea_points", { state: "3" });
    await ha.callService("persistent_notification", "create", {
      notification_id: "reward_facts_token",
      message: "as the bridge raises it",
    });
    await ha.callService("persistent_notification", "create", { notification_id: "other", message: "x" });
    await ha.waitFor(async () => (await everything()).entities.includes("sensor.gone_points"), {
      timeoutMs: 30_000,
      description: "the gone child's entity",
    });
    const before = await everything();
    expect(before.topics.filter((t) => t.includes("/config")).length).toBeGreaterThan(20);
    expect(before.devices.length).toBeGreaterThanOrEqual(3);

    // The removal step run in this process, as the bridge's process runs it after reading its
    // configuration (the REST case below runs the process itself): what it does is then counted
    // by the suite's coverage, which does not see into child processes.
    // On the bridge's own data directory, as standalone (or an add-on reinstalled with its folder).
    const removal = await removeInProcess({
      ...lab.rig.bridgeEnv,
      REWARD_FACTS_PUBLISH: "mqtt",
      REWARD_FACTS_DATA_DIR: run.env.REWARD_FACTS_DATA_DIR as string,
    });
    expect(removal.code).toBe(0);

    const after = await everything();
    expect(after.topics).toEqual(["homeassistant/sensor/bystander/temp/config"]);
    expect(after.entities).toEqual([]);
    expect(after.devices).toEqual([]);
    expect(after.helpers).toEqual([]);
    expect(after.dashboards).toEqual([]);
    expect(after.notifications).toEqual([]);
    expect(after.states).toEqual(["sensor.reward_facts_demo_lea_points"]);
    if (labelled) expect(await organized()).toEqual({ labels: ["Children"], categories: [] });
    expect(
      (await ha.wsCommand<Array<{ notification_id: string }>>({ type: "persistent_notification/get" })).map(
        (n) => n.notification_id,
      ),
    ).toContain("other");
    const log = removal.text();
    expect(log).toMatch(/removed from Home Assistant: \d+ retained MQTT discovery configs, \d+ devices/);
    expect(log).toContain(`${before.devices.length} devices`);
    expect(log).toContain("1 dashboards");
    expect(log).not.toContain("NOT removed");
    // The removal's link to Home Assistant publishes nothing, and its log does not say it does.
    expect(log).toContain("removing everything the bridge made");
    expect(log).not.toContain("publishing");
    expect(log).not.toContain(lab.rig.user.password);
    await ha.api("DELETE", "/api/states/sensor.reward_facts_demo_lea_points");

    // Installed again on the same folder: it starts as on a first start in this Home Assistant,
    // sends nothing again, and says nothing of a restart of Home Assistant.
    const again = lab.again(run);
    await ha.waitForState(childEntityId("lea", "minutes_remaining"), (s) => s.state !== "unavailable", {
      timeoutMs: 90_000,
    });
    const later = lab.rig.sim.addEvent(lea.id, { type: "cheer_sent", cheer: "super" });
    await ha.waitFor(() => facts.events.find((event) => event.data.event_id === later.id), {
      timeoutMs: 60_000,
      description: "a new fact after the reinstall",
    });
    expect(facts.events.filter((event) => event.data.event_id === cheer.id)).toHaveLength(1);
    expect(again.text()).not.toMatch(/restarted without the last facts/);
    // What was offered to Assist was forgotten with the rest: offered again.
    expect(again.text()).toContain("offered the children's entities to Assist");
    await again.stop();
    await facts.close();
    // And removed again, so that the next test starts on a Home Assistant without the bridge.
    const cleanUp = await removeInProcess({
      ...lab.rig.bridgeEnv,
      REWARD_FACTS_PUBLISH: "mqtt",
      REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-removal-")),
    });
    expect(cleanUp.code).toBe(0);
    expect((await everything()).devices).toEqual([]);
  }, 300_000);

  it("removes the states a bridge wrote in REST mode, with no API token or address given", async () => {
    const run = await lab.start({ publish: "rest" });
    await ha.waitForState(childEntityId("lea", "minutes_remaining"), (s) => s.state !== "unavailable", {
      timeoutMs: 90_000,
    });
    await ha.waitFor(async () => (await everything()).helpers.length >= 2, { timeoutMs: 30_000 });
    await run.kill();
    expect((await everything()).states).toContain(STATUS_ENTITY_ID);

    const removal = await lab.start({
      publish: "rest",
      // No API token or address: the removal never calls the API (a revoked token is no obstacle).
      env: { REWARD_FACTS_API_TOKEN: "", REWARD_FACTS_API_BASE_URL: "", REWARD_FACTS_REMOVE: "true" },
    });
    expect(await removal.exited()).toBe(0);
    const after = await everything();
    expect(after).toEqual({
      topics: ["homeassistant/sensor/bystander/temp/config"],
      entities: [],
      devices: [],
      helpers: [],
      dashboards: [],
      notifications: [],
      states: [],
    });
    expect(removal.text()).toMatch(
      /removed from Home Assistant: .* [1-9]\d* states written through the REST API/,
    );
    expect(removal.text()).not.toContain("publishing");
  }, 300_000);

  it("refuses, in one line and exit 2, while a bridge still publishes there; goes on with --force", async () => {
    const publishing = await lab.start({ publish: "rest" });
    await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 90_000 });
    const env = { ...lab.rig.bridgeEnv, REWARD_FACTS_PUBLISH: "rest" };
    const refused = await removeInProcess({
      ...env,
      REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-removal-")),
    });
    expect(refused.code).toBe(2);
    const errors = refused
      .text()
      .split("\n")
      .filter((line) => /ERROR/.test(line));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/nothing was removed: another Reward Facts bridge still publishes/);
    expect(errors[0]).toContain(`process ${publishing.pid}`);
    expect((await everything()).states).toContain(STATUS_ENTITY_ID);

    // `npm start -- --remove --force`: the process as a person runs it.
    const forced = await lab.start({
      publish: "rest",
      env: { REWARD_FACTS_API_TOKEN: "", REWARD_FACTS_API_BASE_URL: "" },
      launch: {
        command: bridgeFromSources.command,
        args: [...bridgeFromSources.args, "--remove", "--force"],
      },
    });
    expect(await forced.exited()).toBe(0);
    expect(forced.text()).toMatch(/removed from Home Assistant/);
    expect(await publishing.stop()).toBe(0);
  }, 300_000);

  it("a token Home Assistant refuses: one ERROR line and exit 2, for the bridge and for the removal", async () => {
    const env = { HA_TOKEN: "not-a-token-of-this-home-assistant" };
    const bridge = await lab.start({ publish: "rest", env });
    expect(await bridge.exited()).toBe(2);
    const bridgeErrors = bridge.output.filter((line) => /ERROR/.test(line));
    expect(bridgeErrors).toHaveLength(1);
    expect(bridgeErrors[0]).toMatch(/token/i);
    expect(bridge.text()).not.toMatch(/unexpected failure|FATAL/);

    const removal = await removeInProcess({
      ...lab.rig.bridgeEnv,
      ...env,
      REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-removal-")),
    });
    expect(removal.code).toBe(2);
    expect(
      removal
        .text()
        .split("\n")
        .filter((line) => /ERROR/.test(line)),
    ).toEqual([expect.stringMatching(/nothing was removed: .*token/i)]);
    expect(removal.text()).not.toContain(env.HA_TOKEN);
  }, 120_000);
});
