import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MqttLink } from "../../../../src/ha/entities/mqtt/mqtt-link.js";
import { type MosquittoBroker, startMosquitto } from "../../../lab/index.js";
import { LogCollector } from "../../../support/engine-rig.js";
import { waitFor } from "../../../support/wait-for.js";

// MQTT.js's packet writer (mqtt-packet) keeps, once built, a table of all 65,536 packet ids as
// ready two-byte buffers: measured 6.5 MiB of the bridge's heap in MQTT mode. The table is global to
// the process and built at the first packet unless a client turned it off, so this file is the
// link's alone: no other MQTT client runs in it.

/** mqtt-packet's table of packet ids, as the copy MQTT.js loads holds it. */
function packetIdTable(): Record<number, Buffer> {
  const fromMqtt = createRequire(createRequire(import.meta.url).resolve("mqtt"));
  return (fromMqtt("mqtt-packet/numbers.js") as { cache: Record<number, Buffer> }).cache;
}

let broker: MosquittoBroker;

beforeAll(async () => {
  broker = await startMosquitto();
}, 600_000);

afterAll(async () => {
  await broker?.dispose();
});

describe("the MQTT link's footprint", () => {
  it("publishes with QoS 1 without building MQTT.js's table of every packet id", async () => {
    const received: string[] = [];
    const link = new MqttLink({
      broker: { url: broker.url },
      logger: new LogCollector().logger(),
      onHomeAssistantOnline: () => undefined,
      subscriptions: ["reward_facts_test/#"],
      onMessage: (topic, payload) => received.push(`${topic}=${payload.toString()}`),
    });
    await link.open();
    await link.whenConnected(AbortSignal.timeout(10_000));
    const messages = Array.from({ length: 20 }, (_, i) => ({
      topic: `reward_facts_test/${i}`,
      payload: `value ${i}`,
      retain: false,
    }));
    await link.publishAll(messages);
    // Every message went out and came back through the broker (packet ids made one by one).
    await waitFor(() => received.length === messages.length, { timeoutMs: 5_000, description: "all back" });
    await link.close();
    expect(received.sort()).toEqual(messages.map((m) => `${m.topic}=${m.payload}`).sort());
    expect(Object.keys(packetIdTable())).toHaveLength(0);
  });
});
