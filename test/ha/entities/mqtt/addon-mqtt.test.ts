import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectAsync } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { App } from "../../../../src/app.js";
import type { BridgeConfig } from "../../../../src/config/load-config.js";
import { optionsSchema } from "../../../../src/config/options-schema.js";
import { STATUS_ENTITY_ID } from "../../../../src/ha/entities/entity-names.js";
import { BRIDGE_AVAILABILITY, BRIDGE_NODE } from "../../../../src/ha/entities/mqtt/topics.js";
import type { ApiSimulator } from "../../../../src/simulator/index.js";
import { BRIDGE_VERSION } from "../../../../src/version.js";
import {
  type HomeAssistantInstance,
  type MosquittoBroker,
  setUpMqttIntegration,
  startHomeAssistant,
  startMosquitto,
  startRigSimulator,
  testedHomeAssistantVersion,
} from "../../../lab/index.js";
import { LogCollector } from "../../../support/engine-rig.js";
import { TEST_INTERVALS_MS } from "../../../support/lab-bridges.js";
import { waitFor } from "../../../support/wait-for.js";

// The bridge as the add-on runs it on MQTT: the broker and the add-on's slug given by the
// Supervisor (a loopback stand-in: the Supervisor exists only inside Home Assistant OS), a real
// Mosquitto, a real Home Assistant whose MQTT integration uses a user of its own. What Home
// Assistant's "Download diagnostics" of the bridge's device holds (its redacted state, no secret),
// and a Mosquitto reinstalled with a new password for the bridge: asked of the Supervisor again.

const version = testedHomeAssistantVersion();
const SUPERVISOR_TOKEN = "supervisor-token-that-must-never-show-5b1e";
const SLUG = "a0d7b954_reward_facts";
const haUser = { username: "homeassistant", password: "ha-mqtt-pw-77c1d0e2" };
const bridgeUser = { username: "addons", password: "first-bridge-pw-3f9a1c" };
const SECOND_PASSWORD = "second-bridge-pw-8d2e4b";

let ha: HomeAssistantInstance;
let broker: MosquittoBroker;
let sim: ApiSimulator;
let supervisor: Server;
let app: App;
const logs = new LogCollector();
/** What the stand-in Supervisor answers for the MQTT service now, and how often it was asked. */
let servicePassword = bridgeUser.password;
let serviceAsks = 0;

beforeAll(async () => {
  [ha, broker, sim] = await Promise.all([
    startHomeAssistant({ version }),
    startMosquitto({ user: haUser, moreUsers: [bridgeUser] }),
    startRigSimulator({ activity: false }),
  ]);
  await setUpMqttIntegration(ha, broker, haUser);
  supervisor = createServer((request, response) => {
    const authorized = request.headers.authorization === `Bearer ${SUPERVISOR_TOKEN}`;
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (!authorized) return answer(401, { result: "error" });
    if (request.url === "/services/mqtt") {
      serviceAsks++;
      return answer(200, {
        result: "ok",
        data: {
          host: "127.0.0.1",
          port: broker.port,
          ssl: false,
          username: bridgeUser.username,
          password: servicePassword,
        },
      });
    }
    if (request.url === "/addons/self/info") return answer(200, { result: "ok", data: { slug: SLUG } });
    answer(404, { result: "error" });
  });
  supervisor.listen(0, "127.0.0.1");
  await once(supervisor, "listening");
  const port = (supervisor.address() as { port: number }).port;
  const dir = await mkdtemp(join(tmpdir(), "rf-addon-mqtt-"));
  const config: BridgeConfig = {
    options: optionsSchema.parse({
      api_token: sim.tokens.household,
      api_base_url: sim.url,
      publish: "mqtt",
      children: [sim.children.ordinary.id],
    }),
    dataDir: join(dir, "data"),
    // Core as the add-on reaches it, but straight (the Supervisor's proxy is not what is tried here).
    homeAssistant: { kind: "standalone", url: ha.url, token: ha.token },
    broker: { kind: "supervisor", url: `http://127.0.0.1:${port}`, token: SUPERVISOR_TOKEN },
    timeZone: undefined,
    mode: "addon",
    heartbeatFile: join(dir, "heartbeat"),
    // The tests' pace (support/lab-bridges.ts), as the bridge processes of the lab's suites run.
    testHooks: {
      intervalsMs: { ...TEST_INTERVALS_MS },
      apiLimitPerMinute: sim.rateLimitPerMinute,
    },
  };
  // No secret given to the logger to hide: a leak would show in the log.
  app = new App({ config, logger: logs.logger() });
  await app.start();
}, 900_000);

afterAll(async () => {
  await app?.stop();
  supervisor?.closeAllConnections();
  supervisor?.close();
  await ha?.stop();
  await broker?.dispose();
  await sim?.stop();
});

const secrets = () => [
  sim.tokens.household,
  ha.token,
  SUPERVISOR_TOKEN,
  haUser.password,
  bridgeUser.password,
  SECOND_PASSWORD,
];

/** A retained message, as another client of the broker (Home Assistant's user) reads it. */
async function retained(topic: string): Promise<string | undefined> {
  const reader = await connectAsync(broker.url, { ...haUser, clientId: `reader-${Date.now()}` });
  try {
    const seen = new Promise<string>((resolve) =>
      reader.on("message", (_t, payload) => resolve(payload.toString())),
    );
    await reader.subscribeAsync(topic);
    return await Promise.race([seen, new Promise<undefined>((resolve) => setTimeout(resolve, 1_000))]);
  } finally {
    await reader.endAsync();
  }
}

interface DownloadedEntity {
  entity_id: string;
  state: { attributes: Record<string, unknown> } | null;
}

function findEntity(value: unknown, entityId: string): DownloadedEntity | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findEntity(item, entityId);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record.entity_id === entityId && "state" in record) return record as unknown as DownloadedEntity;
    for (const item of Object.values(record)) {
      const found = findEntity(item, entityId);
      if (found) return found;
    }
  }
  return undefined;
}

interface RegistryDevice {
  id: string;
  identifiers: Array<[string, string]>;
  configuration_url: string | null;
}

describe(`the add-on on MQTT, Home Assistant ${version}`, () => {
  it("puts its redacted state in the diagnostics download of the bridge's device, and no secret", async () => {
    const status = await ha.waitForState(
      STATUS_ENTITY_ID,
      (s) => {
        const children = (s.attributes.diagnostics as { children?: Array<{ read_at: string | null }> })
          ?.children;
        return s.state === "ok" && children?.[0]?.read_at != null;
        // The status is published at each change, and every minute: the first may precede the first read.
      },
      { timeoutMs: 90_000 },
    );
    expect(status.attributes.requests_last_minute).toBeTypeOf("number");
    const [entry] = await ha.wsCommand<Array<{ entry_id: string }>>({
      type: "config_entries/get",
      domain: "mqtt",
    });
    const devices = await ha.wsCommand<RegistryDevice[]>({ type: "config/device_registry/list" });
    const device = devices.find((d) => d.identifiers.some(([, id]) => id === BRIDGE_NODE));
    // The device page links to the add-on's page, under the slug the Supervisor gave.
    expect(device?.configuration_url).toBe(`homeassistant://hassio/addon/${SLUG}/info`);
    const response = await fetch(
      `${ha.url}/api/diagnostics/config_entry/${entry?.entry_id}/device/${device?.id}`,
      {
        headers: { authorization: `Bearer ${ha.token}` },
      },
    );
    expect(response.status).toBe(200);
    const text = await response.text();
    // Wherever the release puts a device's entities in the download: the status entity's state there.
    const statusInDownload = findEntity(JSON.parse(text), STATUS_ENTITY_ID);
    expect(statusInDownload?.state?.attributes.diagnostics).toMatchObject({
      versions: { bridge: BRIDGE_VERSION, node: process.version, home_assistant: version },
      budget: { budget_per_minute: expect.any(Number), requests_last_minute: expect.any(Number) },
      children: [{ child_id: sim.children.ordinary.id, read_at: expect.any(String) }],
      failing: [],
    });
    for (const secret of secrets()) expect(text, "a secret in the diagnostics").not.toContain(secret);
  }, 150_000);

  it("registers its internal sensors disabled, and its status enabled", async () => {
    const entities = await ha.wsCommand<Array<{ unique_id: string; disabled_by: string | null }>>({
      type: "config/entity_registry/list",
    });
    const byId = new Map(entities.map((e) => [e.unique_id, e.disabled_by]));
    expect(byId.get(`${BRIDGE_NODE}_status`)).toBeNull();
    for (const key of ["requests_last_minute", "budget_per_minute", "interval_stretch", "last_error"])
      expect(byId.get(`${BRIDGE_NODE}_${key}`), key).toBe("integration");
  });

  it("asks the Supervisor again after the broker refused it, and takes a reinstalled Mosquitto's new password", async () => {
    const asksBefore = serviceAsks;
    // The Mosquitto add-on reinstalled: a new password for the add-on's user, which the Supervisor now gives.
    await broker.setPassword(bridgeUser.username, SECOND_PASSWORD);
    servicePassword = SECOND_PASSWORD;
    await broker.stop();
    await broker.start();
    await waitFor(() => logs.matching(/refused the bridge's credentials/).length > 0, {
      timeoutMs: 30_000,
      description: "the refusal",
    });
    await waitFor(() => logs.matching(/accepted the credentials the Supervisor gives now/).length === 1, {
      timeoutMs: 60_000,
      description: "the broker takes the new credentials",
    });
    expect(serviceAsks).toBeGreaterThan(asksBefore);
    // The broker forgot everything at its restart (no persistence): only the new link says online.
    await waitFor(async () => (await retained(BRIDGE_AVAILABILITY)) === "online", {
      timeoutMs: 10_000,
      description: "the bridge's birth, retained",
    });
    // Home Assistant sees the bridge again: its status, published anew through the new link.
    await ha.waitForState(STATUS_ENTITY_ID, (s) => s.state === "ok", { timeoutMs: 60_000 });
    // One line for the refusal, however many times it was tried.
    expect(logs.matching(/refused the bridge's credentials/)).toHaveLength(1);
    for (const secret of secrets()) expect(logs.raw.join("\n")).not.toContain(secret);
  }, 150_000);
});
