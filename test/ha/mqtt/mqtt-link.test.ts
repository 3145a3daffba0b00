import { connectAsync } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrokerRefusedError, MqttLink } from "../../../src/ha/mqtt/mqtt-link.js";
import { BRIDGE_AVAILABILITY } from "../../../src/ha/mqtt/topics.js";
import { LogCollector } from "../../support/engine-rig.js";
import { type MosquittoBroker, startMosquitto } from "../../support/mosquitto.js";
import { waitFor } from "../../support/wait-for.js";

// The bridge's link to a real Mosquitto: its birth, a refused login, a broker that goes away and
// comes back, and never the password in a log line. (The last will, when the bridge is killed, is
// proven end to end in mqtt-publisher.test.ts.)

const user = { username: "bridge", password: "pw-0f9e8d7c6b5a" };
let broker: MosquittoBroker;

beforeAll(async () => {
  broker = await startMosquitto({ user });
}, 600_000);

afterAll(async () => {
  await broker?.dispose();
});

/** The retained availability of the bridge, as another client of the broker reads it. */
async function availability(): Promise<string | undefined> {
  const reader = await connectAsync(broker.url, { ...user, clientId: `reader-${Date.now()}` });
  try {
    const seen = new Promise<string>((resolve) =>
      reader.on("message", (_topic, payload) => resolve(payload.toString())),
    );
    await reader.subscribeAsync(BRIDGE_AVAILABILITY);
    return await Promise.race([seen, new Promise<undefined>((resolve) => setTimeout(resolve, 1_000))]);
  } finally {
    await reader.endAsync();
  }
}

describe("the MQTT link against Mosquitto", () => {
  it("says online when connected, and is back by itself after the broker restarts", async () => {
    const logs = new LogCollector();
    const link = new MqttLink({
      broker: { url: broker.url, ...user },
      logger: logs.logger([user.password]),
      onHomeAssistantOnline: () => undefined,
      keepaliveSeconds: 2,
    });
    await link.open();
    await waitFor(async () => (await availability()) === "online", { timeoutMs: 5_000 });
    await broker.stop();
    await broker.start();
    await waitFor(() => link.connected, { timeoutMs: 20_000, description: "reconnected" });
    expect(logs.matching(/broker is away/)).toHaveLength(1);
    await waitFor(() => logs.matching(/broker is back/).length === 1, { timeoutMs: 5_000 });
    // Without persistence the broker forgot everything: the link said online again by itself.
    await waitFor(async () => (await availability()) === "online", { timeoutMs: 5_000 });
    await link.close();
    expect(logs.raw.join("\n")).not.toContain(user.password);
  }, 60_000);

  it("refuses wrong credentials with a typed error a person can act on", async () => {
    const link = new MqttLink({
      broker: { url: broker.url, username: "bridge", password: "wrong-password-123" },
      logger: new LogCollector().logger(),
      onHomeAssistantOnline: () => undefined,
    });
    const refused = await link.open().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(BrokerRefusedError);
    expect((refused as Error).message).toMatch(/refused the bridge's credentials/);
    expect((refused as Error).message).not.toContain("wrong-password-123");
    await link.close();
  });
});
