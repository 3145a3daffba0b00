import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AWAY_FROM_BROKER } from "../../../../src/ha/entities/mqtt/home-assistant-presence.js";
import type { ApiSimulator } from "../../../../src/simulator/index.js";
import {
  CuttableLink,
  type EventRecorder,
  type HomeAssistantInstance,
  type MosquittoBroker,
  setUpMqttIntegration,
  startHomeAssistant,
  startMosquitto,
  startRigSimulator,
  testedHomeAssistantVersion,
} from "../../../lab/index.js";
import type { BridgeProcess } from "../../../support/bridge-process.js";
import { LabBridges } from "../../../support/lab-bridges.js";

// Home Assistant's own MQTT client loses the broker while the bridge keeps its own: the delivery
// script's publish to the event entity fails, Home Assistant answers the bridge with an error,
// and the fact is neither fired nor recorded. Sent again once Home Assistant has the broker back,
// it must reach the bus and the event entity once each: no try that failed may leave a copy behind
// (the publish is QoS 0 since issue 48, and the event comes after it in the same script). Nor may
// it go as Home Assistant reconnects, before it has subscribed again (the event entity would miss
// it, seen once in CI on 2024.3.3): facts wait from Home Assistant's last will to its birth message.

const version = testedHomeAssistantVersion();
const JOURNAL = "event.reward_facts_lea_journal";

let ha: HomeAssistantInstance;
let broker: MosquittoBroker;
let relay: CuttableLink;
let sim: ApiSimulator;
/** Home Assistant and the broker on their own: the bridge reaches the broker directly. */
const bridges = new LabBridges(() => ({
  sim,
  bridgeEnv: {
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    MQTT_URL: broker.url,
    HA_URL: ha.url,
    HA_TOKEN: ha.token,
  },
}));
let bridge: BridgeProcess | undefined;
let fired: EventRecorder;
let changes: EventRecorder;

beforeAll(async () => {
  [ha, broker, sim] = await Promise.all([
    startHomeAssistant({ version }),
    startMosquitto(),
    startRigSimulator({ activity: false }),
  ]);
  // Home Assistant reaches the broker through a relay the test can make refuse; the bridge directly.
  relay = await CuttableLink.open(broker.url.replace(/^mqtt:/, "http:"));
  await setUpMqttIntegration(ha, { port: Number(new URL(relay.url).port) });
  fired = await ha.subscribeEvents("reward_facts_event");
  changes = await ha.subscribeEvents("state_changed");
  bridge = await bridges.start({ children: [sim.children.ordinary.id], publish: "mqtt" });
  const started = bridge;
  await ha
    .waitForState(JOURNAL, () => true, { timeoutMs: 120_000 })
    .catch((error: unknown) => {
      throw new Error(
        `${(error as Error).message}\nthe bridge said:\n${started.output.slice(-20).join("\n")}`,
      );
    });
}, 900_000);

afterAll(async () => {
  await bridges.killAll();
  await fired?.close();
  await changes?.close();
  await relay?.close();
  await ha?.stop();
  await broker?.dispose();
  await sim?.stop();
});

describe(`Home Assistant ${version} without its broker, the bridge with it`, () => {
  it("keeps a fact until Home Assistant has the broker again, then sends it to the event entity once", async () => {
    relay.refuse();
    // Home Assistant notices at once (its connection ends), and tries again every few seconds.
    await sleep(2_000);
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "bravo" });
    const readAt = Date.now();
    // Several polls, each a try that Home Assistant refuses while its client has no broker.
    await ha.waitFor(
      () =>
        sim.requests.filter((r) => r.at >= readAt && r.path.includes("/events") && r.status === 200).length >=
        3,
      { timeoutMs: 60_000, description: "three polls of the journal while the broker is away" },
    );
    await sleep(3_000);
    expect(fired.events.filter((e) => e.data.event_id === fact.id)).toHaveLength(0);
    // The bridge heard Home Assistant's last will, once, and holds facts for its birth message.
    expect(bridge?.output.filter((line) => line.includes(`INFO: ${AWAY_FROM_BROKER}`))).toHaveLength(1);

    relay.admit();
    await ha.waitFor(() => fired.events.find((e) => e.data.event_id === fact.id), {
      timeoutMs: 90_000,
      description: "the fact fired once Home Assistant has the broker again",
    });
    // Time for any message still queued anywhere to arrive.
    await sleep(8_000);
    const onEntity = changes.events.filter(
      (e) =>
        e.data.entity_id === JOURNAL &&
        (e.data.new_state as { attributes?: { event_id?: string } } | null)?.attributes?.event_id === fact.id,
    );
    expect(fired.events.filter((e) => e.data.event_id === fact.id)).toHaveLength(1);
    expect(onEntity).toHaveLength(1);
    expect(bridge?.output.some((line) => line.includes("MQTT client is back on the broker"))).toBe(true);
  }, 240_000);
});
