import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEventTypes } from "../../../../src/api/schemas.js";
import { derivedFactTypes } from "../../../../src/engine/derived-facts.js";
import { childEntityKinds } from "../../../../src/ha/entities/catalogue.js";
import { childEntityId, STATUS_ENTITY_ID } from "../../../../src/ha/entities/entity-names.js";
import type { ApiSimulator } from "../../../../src/simulator/index.js";
import {
  type EventRecorder,
  type HomeAssistantInstance,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../../../lab/index.js";
import type { BridgeProcess } from "../../../support/bridge-process.js";
import { suiteOnRig } from "../../../support/lab-bridges.js";
import { afterReadings } from "../../../support/served-reads.js";

// The bridge publishing through MQTT discovery, with a real Mosquitto and a real Home Assistant
// whose MQTT integration is set up as a user does it. Asserted through Home Assistant's own
// registries, as a user sees them in Settings → Devices & services.

const version = testedHomeAssistantVersion();

interface RegistryEntity {
  entity_id: string;
  unique_id: string;
  platform: string;
  device_id: string | null;
  area_id: string | null;
  name: string | null;
}
interface RegistryDevice {
  id: string;
  name: string;
  name_by_user: string | null;
  identifiers: Array<[string, string]>;
  via_device_id: string | null;
}

const lab = suiteOnRig(() => startMqttRig(version));
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let dataDir: string;
let events: EventRecorder;
const { runs } = lab;

const entities = () => ha.wsCommand<RegistryEntity[]>({ type: "config/entity_registry/list" });
const devices = () => ha.wsCommand<RegistryDevice[]>({ type: "config/device_registry/list" });
const ours = (list: RegistryEntity[]) => list.filter((e) => e.platform === "mqtt");

/** The suite's bridge, following Léa and Noah, always on the same data directory. */
function bridge(env: Record<string, string> = {}): Promise<BridgeProcess> {
  const { ordinary, custody } = sim.children;
  return lab.start({ children: [ordinary.id, custody.id], dataDir, env });
}

/** Labels and categories came with Home Assistant 2024.4. */
const hasLabels = (release: string) => release.localeCompare("2024.4", undefined, { numeric: true }) >= 0;

const contractIds = (slug: string) => childEntityKinds.map((kind) => childEntityId(slug, kind));

beforeAll(async () => {
  ({ ha, sim } = lab.rig);
  dataDir = join(await mkdtemp(join(tmpdir(), "rf-mqtt-")), "data");
  events = await ha.subscribeEvents("reward_facts_event");
});

afterAll(async () => {
  await events?.close();
});

/** The MQTT device triggers Home Assistant offers on a device. */
async function mqttTriggerTypes(deviceId: string | undefined): Promise<string[]> {
  const triggers = await ha.wsCommand<Array<{ type: string; platform?: string; domain?: string }>>({
    type: "device_automation/trigger/list",
    device_id: deviceId,
  });
  return triggers.filter((t) => (t.domain ?? t.platform) === "mqtt").map((t) => t.type);
}

describe(`MQTT discovery on Home Assistant ${version}`, () => {
  it("moves from REST-made states to registry entities with the same ids (no _2)", async () => {
    // An earlier bridge, in REST mode, left states under the contract's ids.
    const rest = await bridge({ REWARD_FACTS_PUBLISH: "rest" });
    await ha.waitFor(async () => (await ha.getState(childEntityId("lea", "minutes_remaining")))?.state, {
      timeoutMs: 60_000,
    });
    expect(await rest.stop()).toBe(0);

    const run = await bridge();
    await ha.waitFor(
      async () => {
        const registered = new Set(ours(await entities()).map((e) => e.entity_id));
        return [...contractIds("lea"), ...contractIds("noah"), STATUS_ENTITY_ID].every((id) =>
          registered.has(id),
        );
      },
      { timeoutMs: 60_000, description: "every contract entity registered" },
    );
    const registered = ours(await entities());
    expect(registered.filter((e) => /_2$/.test(e.entity_id))).toEqual([]);
    const lea = registered.find((e) => e.entity_id === childEntityId("lea", "minutes_remaining"));
    expect(lea?.unique_id).toBe(`reward_facts_${sim.children.ordinary.id}_minutes_remaining`);
    // The state and its attributes are two messages: wait for both.
    const state = await ha.waitForState(
      childEntityId("lea", "minutes_remaining"),
      (s) => s.state !== "unavailable" && s.state !== "unknown" && s.attributes.child_name === "Léa",
    );
    expect(Number(state.state)).toBeGreaterThanOrEqual(0);
    expect(state.attributes).toMatchObject({
      unit_of_measurement: "min",
      device_class: "duration",
      child_name: "Léa",
    });
    expect(run.text()).not.toContain(lab.rig.user.password);
  }, 180_000);

  it("makes one device per child, via the bridge's device, with its event entity and device triggers", async () => {
    const all = await devices();
    const bridgeDevice = all.find((d) => d.identifiers.some(([, id]) => id === "reward_facts_bridge"));
    const lea = all.find((d) =>
      d.identifiers.some(([, id]) => id === `reward_facts_${sim.children.ordinary.id}`),
    );
    expect(bridgeDevice?.name).toBe("Reward Facts bridge");
    expect(lea?.name).toBe("Léa");
    expect(lea?.via_device_id).toBe(bridgeDevice?.id);
    // Discovered after the sensors the first test waited for (Home Assistant sets up the event
    // platform and the device triggers when first needed): waited for, not read once.
    const wanted = [
      ...contractIds("lea"),
      "event.reward_facts_lea_journal",
      "sensor.reward_facts_lea_read_status",
      "button.reward_facts_lea_read_now",
      "button.reward_facts_lea_test_fact",
    ].sort();
    const onLea = await ha
      .waitFor(async () => {
        const ids = ours(await entities())
          .filter((e) => e.device_id === lea?.id)
          .map((e) => e.entity_id)
          .sort();
        return ids.length >= wanted.length ? ids : undefined;
      })
      .catch(async () =>
        ours(await entities())
          .filter((e) => e.device_id === lea?.id)
          .map((e) => e.entity_id),
      );
    expect([...onLea].sort()).toEqual(wanted);
    // A trigger per type of fact: the journal's and those worked out from her day's readings.
    const factTypes = [...apiEventTypes, ...derivedFactTypes];
    const offered = await ha
      .waitFor(async () => {
        const types = await mqttTriggerTypes(lea?.id);
        return types.length >= factTypes.length ? types : undefined;
      })
      .catch(() => mqttTriggerTypes(lea?.id));
    expect(offered.sort()).toEqual([...factTypes].sort());
    const journal = await ha.getState("event.reward_facts_lea_journal");
    expect(journal?.attributes.event_types).toEqual(factTypes);
  });

  it("labels each child's device and files the bridge's helpers in a category of their own (2024.4 and later), never over a person's choice", async () => {
    const node = (childId: string) => `reward_facts_${childId}`;
    const deviceOf = async (childId: string) =>
      (await devices()).find((d) => d.identifiers.some(([, id]) => id === node(childId))) as
        | (RegistryDevice & { labels?: string[] })
        | undefined;
    const { ordinary, custody } = sim.children;
    if (!hasLabels(version)) {
      // Nothing to do before labels: nothing said about it either.
      await ha.waitFor(async () => (await deviceOf(custody.id)) !== undefined);
      expect((await deviceOf(ordinary.id))?.labels).toBeUndefined();
      expect(runs.at(-1)?.text()).not.toMatch(/label/i);
      return;
    }
    const labelsList = () =>
      ha.wsCommand<Array<{ label_id: string; name: string }>>({ type: "config/label_registry/list" });
    const children = await ha.waitFor(
      async () => {
        const label = (await labelsList()).find((l) => l.name === "Children");
        const lea = await deviceOf(ordinary.id);
        const noah = await deviceOf(custody.id);
        return label && lea?.labels?.includes(label.label_id) && noah?.labels?.includes(label.label_id)
          ? label
          : undefined;
      },
      { timeoutMs: 60_000, description: () => `the children's label (${runs.at(-1)?.text().slice(-1_000)})` },
    );
    const category = await ha.waitFor(async () =>
      (
        await ha.wsCommand<Array<{ category_id: string; name: string }>>({
          type: "config/category_registry/list",
          scope: "helpers",
        })
      ).find((c) => c.name === "Reward Facts bridge"),
    );
    const helpers = await ha.waitFor(async () => {
      const filed = (
        await ha.wsCommand<Array<RegistryEntity & { categories?: Record<string, string> }>>({
          type: "config/entity_registry/list",
        })
      ).filter((e) => e.platform === "input_text" && e.unique_id.startsWith("reward_facts_"));
      // The lease and two records per child, each filed.
      return filed.length >= 5 && filed.every((e) => e.categories?.helpers === category.category_id)
        ? filed
        : undefined;
    });
    expect(helpers.map((e) => e.unique_id)).toContain("reward_facts_bridge_lease");
    // A person labels Noah's device otherwise: left so across a restart of the bridge.
    const family = await ha.wsCommand<{ label_id: string }>({
      type: "config/label_registry/create",
      name: "Family",
    });
    const noahDevice = await deviceOf(custody.id);
    await ha.wsCommand({
      type: "config/device_registry/update",
      device_id: noahDevice?.id,
      labels: [family.label_id],
    });
    expect(await runs.at(-1)?.stop()).toBe(0);
    await bridge();
    await afterReadings(sim, custody.id, "today", 2);
    expect((await deviceOf(custody.id))?.labels).toEqual([family.label_id]);
    expect((await deviceOf(ordinary.id))?.labels).toEqual([children.label_id]);
  }, 180_000);

  it("fires each journal fact once on the child's event entity and once on the bus", async () => {
    const { ordinary } = sim.children;
    const label = "{{ Range ta chambre }}";
    const fact = sim.addEvent(ordinary.id, { type: "behavior_validated", behaviorId: "b7", label });
    const fired = await ha.waitFor(() => events.events.find((e) => e.data.event_id === fact.id), {
      timeoutMs: 60_000,
    });
    expect(fired.data).toMatchObject({ type: "behavior_validated", label, redelivered: false });
    const journal = await ha.waitFor(async () => {
      const s = await ha.getState("event.reward_facts_lea_journal");
      return s?.attributes.event_id === fact.id ? s : undefined;
    });
    expect(journal.attributes).toMatchObject({ event_type: "behavior_validated", label, child: "lea" });
    // Two more poll rounds: nothing fires again.
    await afterReadings(sim, ordinary.id, "events", 2);
    expect(events.events.filter((e) => e.data.event_id === fact.id)).toHaveLength(1);
    const history = await ha.api<Array<Array<{ attributes: { event_id?: string } }>>>(
      "GET",
      `/api/history/period/${new Date(Date.now() - 10 * 60_000).toISOString()}?filter_entity_id=event.reward_facts_lea_journal`,
    );
    if (history.status === 200) {
      const changes = (history.body[0] ?? []).filter((s) => s.attributes.event_id === fact.id);
      expect(changes).toHaveLength(1);
    }
  }, 120_000);

  it("keeps an area and a name given in the registry across a bridge restart and a Home Assistant restart", async () => {
    const area = await ha.wsCommand<{ area_id: string }>({
      type: "config/area_registry/create",
      name: "Kids' room",
    });
    const entityId = childEntityId("lea", "points");
    await ha.wsCommand({
      type: "config/entity_registry/update",
      entity_id: entityId,
      name: "Léa's stars",
      area_id: area.area_id,
    });
    const before = runs.at(-1);
    expect(await before?.stop()).toBe(0);
    await bridge();
    await ha.restart();
    await ha.waitFor(async () => (await ha.getState(entityId))?.state !== "unavailable", {
      timeoutMs: 60_000,
    });
    const entry = (await entities()).find((e) => e.entity_id === entityId);
    expect(entry).toMatchObject({ name: "Léa's stars", area_id: area.area_id });
    // Recent releases put the device's name before a name given to a device's entity.
    expect((await ha.getState(entityId))?.attributes.friendly_name).toMatch(/^(Léa )?Léa's stars$/);
    expect(ours(await entities()).filter((e) => /_2$/.test(e.entity_id))).toEqual([]);
  }, 180_000);

  it("shows the last states after Home Assistant restarts while the bridge is stopped; stopped, then unavailable when killed", async () => {
    const running = runs.at(-1) as BridgeProcess;
    const minutes = childEntityId("lea", "minutes_remaining");
    await ha.waitFor(async () => (await ha.getState(minutes))?.state !== "unavailable", {
      timeoutMs: 60_000,
    });
    expect(await running.stop()).toBe(0);
    await ha.restart();
    // Retained in the broker: the status says the bridge stopped, the children's values are kept
    // but shown unavailable (nothing reads them).
    await ha.waitFor(async () => (await ha.getState(STATUS_ENTITY_ID))?.state === "stopped", {
      timeoutMs: 30_000,
    });
    // Retained messages come back in no set order: wait for each rather than read it once.
    await ha.waitForState(minutes, "unavailable");
    await ha.waitForState("sensor.reward_facts_lea_read_status", "the bridge stopped");

    const again = await bridge();
    await ha.waitFor(async () => (await ha.getState(minutes))?.state !== "unavailable", {
      timeoutMs: 60_000,
    });
    await again.kill();
    const killedAt = Date.now();
    // The broker publishes the bridge's last will: every entity goes unavailable.
    await ha.waitFor(
      async () =>
        (
          await Promise.all(
            [minutes, STATUS_ENTITY_ID, "event.reward_facts_lea_journal"].map((id) => ha.getState(id)),
          )
        ).every((s) => s?.state === "unavailable"),
      { timeoutMs: 60_000, description: "every entity unavailable" },
    );
    expect(Date.now() - killedAt).toBeLessThan(45_000);
  }, 240_000);

  it("removes the device of a child who left the household", async () => {
    const run = await bridge();
    const noah = `reward_facts_${sim.children.custody.id}`;
    const hasNoah = async () => (await devices()).some((d) => d.identifiers.some(([, id]) => id === noah));
    await ha.waitFor(hasNoah, { timeoutMs: 60_000, description: "Noah's device" });
    sim.moveChildOut(sim.children.custody.id);
    try {
      // The next poll of Noah's journal answers 403: the child is no longer the household's.
      await ha.waitFor(async () => !(await hasNoah()), {
        timeoutMs: 60_000,
        description: "Noah's device gone",
      });
      expect(ours(await entities()).filter((e) => e.entity_id.includes("_noah_"))).toEqual([]);
      // Léa's stays.
      expect(ours(await entities()).some((e) => e.entity_id === childEntityId("lea", "points"))).toBe(true);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nthe bridge said:\n${run.text()}`);
    } finally {
      sim.moveChildIn(sim.children.custody.id);
      expect(await run.stop()).toBe(0);
    }
  }, 120_000);

  it("says so when the broker refuses the bridge: the status, one log line, a notification; it waits", async () => {
    const wrong = "not-the-password-9f8e";
    const refused = await bridge({ MQTT_PASSWORD: wrong });
    await ha.waitFor(async () => (await ha.getState(STATUS_ENTITY_ID))?.state === "broker_refused", {
      timeoutMs: 60_000,
    });
    // Raised right after the status is written, by a call of its own.
    await ha.waitFor(
      async () => {
        const notifications = await ha.wsCommand<Array<{ notification_id: string }>>({
          type: "persistent_notification/get",
        });
        return notifications.some((n) => n.notification_id === "reward_facts_mqtt");
      },
      { description: "the reward_facts_mqtt notification" },
    );
    expect(refused.running).toBe(true);
    expect(
      refused
        .text()
        .split("\n")
        .filter((line) => /refused the bridge's credentials/.test(line)),
    ).toHaveLength(1);
    expect(refused.text()).not.toContain(wrong);
    expect(await refused.stop()).toBe(0);
  }, 120_000);
});
