import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connectAsync } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BrokerRefusedError,
  BrokerUnavailableError,
  brokerEndpoint,
  MqttLink,
} from "../../../../src/ha/entities/mqtt/mqtt-link.js";
import { BRIDGE_AVAILABILITY, HOME_ASSISTANT_STATUS } from "../../../../src/ha/entities/mqtt/topics.js";
import { CuttableLink, type MosquittoBroker, startMosquitto } from "../../../lab/index.js";
import { LogCollector } from "../../../support/engine-rig.js";
import { waitFor } from "../../../support/wait-for.js";

// The bridge's link to a real Mosquitto: its birth, a refused login, a broker that goes away and
// comes back, and never the password in a log line. (The last will, when the bridge is killed, is
// proven end to end in mqtt-publisher.test.ts.)

const user = { username: "bridge", password: "pw-0f9e8d7c6b5a" };
/** A user whose password a test changes, as a reinstalled Mosquitto add-on does. */
const moving = { username: "moving", password: "pw-first-7e6d5c4b" };
let broker: MosquittoBroker;

beforeAll(async () => {
  broker = await startMosquitto({ user, moreUsers: [moving] });
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

/**
 * A link connected through a relay that from then on loses the broker's answers, and a message it
 * published since: it leaves, its receipt never comes. `outcome`: how that publish ended.
 */
async function messageWithoutReceipt(login: { username: string; password: string }) {
  const relay = await CuttableLink.open(broker.url);
  const link = new MqttLink({
    broker: { url: relay.url.replace("http:", "mqtt:"), ...login },
    logger: new LogCollector().logger(),
    onHomeAssistantOnline: () => undefined,
  });
  await link.open();
  await waitFor(() => link.connected, { timeoutMs: 5_000, description: "the birth message out" });
  relay.loseReplies();
  const outcome = link.publish({ topic: "reward_facts/test/no_receipt", payload: "1", retain: false }).then(
    () => "taken",
    (error: unknown) => error,
  );
  return { relay, link, outcome };
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

  it("hears Home Assistant leave the broker by its last will, and come back by its birth message", async () => {
    let births = 0;
    const link = new MqttLink({
      broker: { url: broker.url, ...user },
      logger: new LogCollector().logger(),
      onHomeAssistantOnline: () => births++,
    });
    await link.open();
    await waitFor(() => link.connected, { timeoutMs: 5_000, description: "the link up" });
    // A stand-in for Home Assistant's client: the same last will, and a connection that breaks.
    const homeAssistant = await connectAsync(broker.url, {
      ...user,
      clientId: `home-assistant-${Date.now()}`,
      will: { topic: HOME_ASSISTANT_STATUS, payload: Buffer.from("offline"), qos: 0, retain: false },
    });
    expect(link.homeAssistantAway).toBe(false);
    homeAssistant.stream.destroy();
    await waitFor(() => link.homeAssistantAway, { timeoutMs: 10_000, description: "the last will heard" });
    await homeAssistant.endAsync(true);
    const back = await connectAsync(broker.url, { ...user, clientId: `home-assistant-back-${Date.now()}` });
    await back.publishAsync(HOME_ASSISTANT_STATUS, "online");
    await waitFor(() => !link.homeAssistantAway && births === 1, {
      timeoutMs: 10_000,
      description: "the birth message heard",
    });
    await back.endAsync();
    await link.close();
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

  it("closes without waiting for a receipt the broker never sends; the message waiting for it fails", async () => {
    const { relay, link, outcome } = await messageWithoutReceipt(user);
    try {
      // Closing once waited for that receipt for good, and a bridge's stop with it.
      await link.close();
      expect(await outcome).toBeInstanceOf(BrokerUnavailableError);
    } finally {
      await relay.close();
    }
  }, 30_000);

  it("fails a message in flight when the restarted broker refuses the credentials, instead of keeping it forever", async () => {
    const { relay, link, outcome } = await messageWithoutReceipt(moving);
    try {
      // The Mosquitto add-on reinstalled: a new password. The link reconnects, is refused, and
      // ends its client; the message it was waiting on then had no way left to be acknowledged,
      // and the job that published it (the engine's) waited on it for good.
      await broker.setPassword(moving.username, "pw-second-1a2b3c4d");
      await broker.stop();
      await broker.start();
      await waitFor(() => link.refused !== undefined, { timeoutMs: 20_000, description: "the refusal" });
      expect(await outcome).toBeInstanceOf(BrokerUnavailableError);
    } finally {
      await link.close();
      await relay.close();
      await broker.setPassword(moving.username, moving.password);
    }
  }, 40_000);

  it("connects without a deprecation warning on standard error (Node 24 reports url.parse)", async () => {
    // A process of its own, as the bridge is; --pending-deprecation makes Node 20 report what
    // Node 24 reports anyway.
    const link = new URL("../../../../src/ha/entities/mqtt/mqtt-link.ts", import.meta.url).href;
    const script = [
      `const { MqttLink } = await import(${JSON.stringify(link)});`,
      `const link = new MqttLink({ broker: ${JSON.stringify({ url: broker.url, ...user })},`,
      "  logger: { info() {}, warn() {}, error() {}, debug() {} }, onHomeAssistantOnline() {} });",
      "await link.open(); await link.close(); console.log('connected');",
    ].join("\n");
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ["--pending-deprecation", "--import", "tsx", "--input-type=module", "-e", script],
      { timeout: 30_000 },
    );
    expect(stdout.trim()).toBe("connected");
    expect(stderr).not.toMatch(/DeprecationWarning/);
  }, 60_000);
});

describe("the broker's address", () => {
  it("is read with WHATWG's URL: protocol, host (an IPv6 one without brackets) and port", () => {
    expect(brokerEndpoint("mqtt://192.168.1.10:1883")).toEqual({
      protocol: "mqtt",
      host: "192.168.1.10",
      port: 1883,
    });
    expect(brokerEndpoint("mqtts://[fd00::1]:8884")).toEqual({
      protocol: "mqtts",
      host: "fd00::1",
      port: 8884,
    });
    // No port: MQTT.js takes the protocol's own.
    expect(brokerEndpoint("mqtt://core-mosquitto")).toEqual({ protocol: "mqtt", host: "core-mosquitto" });
  });
});
