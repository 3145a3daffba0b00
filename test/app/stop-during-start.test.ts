import { once } from "node:events";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "../../src/app.js";
import type { BridgeConfig } from "../../src/config/load-config.js";
import { type BridgeOptionsInput, optionsSchema } from "../../src/config/options-schema.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import { LogCollector } from "../support/engine-rig.js";
import { type SilentServer, silentServer } from "../support/silent-server.js";
import { waitFor } from "../support/wait-for.js";

// A stop that comes while the app is still starting (the Supervisor's SIGTERM during a slow start)
// ends the start at its next step: stop() returns once the start has ended, nothing is started
// after it, and what was started is taken down. Run in this process, where no exit hides what a
// start would still do after the stop: the API is the simulator, Home Assistant and the broker are
// servers that accept and never answer, the Supervisor a loopback stand-in that never answers.

const HA_TOKEN = "ha-token-that-must-never-show-0123456789";
const SUPERVISOR_TOKEN = "supervisor-token-that-must-never-show";

let sim: ApiSimulator;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: false });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await sim?.stop();
});

async function silent(): Promise<SilentServer> {
  const server = await silentServer();
  cleanups.push(() => server.close());
  return server;
}

/** A bridge's configuration on a fresh data dir: the simulator's API, and `parts`. */
async function configWith(
  parts: Partial<Omit<BridgeConfig, "options">> & { options?: Partial<BridgeOptionsInput> },
): Promise<BridgeConfig> {
  const dir = await mkdtemp(join(tmpdir(), "rf-stop-during-start-"));
  const { options, ...rest } = parts;
  return {
    options: optionsSchema.parse({ api_token: sim.tokens.household, api_base_url: sim.url, ...options }),
    dataDir: join(dir, "data"),
    homeAssistant: null,
    broker: { kind: "none" },
    timeZone: undefined,
    mode: "standalone",
    heartbeatFile: join(dir, "heartbeat"),
    ...rest,
  };
}

/** The app, starting, with its log; `outcome()` says whether its start has ended by now. */
function startApp(config: BridgeConfig) {
  const logs = new LogCollector();
  const app = new App({ config, logger: logs.logger([sim.tokens.household, HA_TOKEN, SUPERVISOR_TOKEN]) });
  const started = app.start().then(
    () => "ended" as const,
    (error: unknown) => error,
  );
  // Once every callback already due has run: a start that ended with the stop has said so by then.
  const outcome = () =>
    Promise.race([started, new Promise((resolve) => setImmediate(() => resolve("still starting")))]);
  const said = (message: string) => logs.lines.some((line) => line.msg === message);
  return { app, logs, outcome, said };
}

/** What the app does once its start is past the storage: none of it may come after the stop. */
const STARTED_AFTER_STORAGE = [
  "publishing entities as states (no MQTT broker known)",
  "publishing entities through MQTT discovery",
  "connecting to Home Assistant",
  "polling the Reward Facts API",
];

describe("a stop during start-up", () => {
  it("ends the storage's retries: nothing read, nothing built", async () => {
    const root = await mkdtemp(join(tmpdir(), "rf-stop-storage-"));
    await writeFile(join(root, "file"), "not a directory");
    const ha = await silent();
    const config = await configWith({
      dataDir: join(root, "file", "data"),
      homeAssistant: { kind: "standalone", url: `http://127.0.0.1:${ha.port}`, token: HA_TOKEN },
    });
    const { app, logs, outcome, said } = startApp(config);
    await waitFor(() => logs.matching(/^cannot use the data directory/).length > 0);

    await app.stop();

    expect(await outcome()).toBe("ended");
    expect(STARTED_AFTER_STORAGE.filter(said)).toEqual([]);
    expect(ha.accepted).toBe(0);
    expect(sim.requests).toEqual([]);
  });

  it("ends the Supervisor's broker lookup: no sink is built, no engine started, even when it answers after", async () => {
    const ha = await silent();
    let answer: (() => void) | undefined;
    const supervisor: Server = createServer((_request, response) => {
      // No broker installed, as the Supervisor says it, but only once the test lets it.
      answer = () => response.writeHead(400, { "content-type": "application/json" }).end("{}");
    });
    supervisor.listen(0, "127.0.0.1");
    await once(supervisor, "listening");
    cleanups.push(() => {
      supervisor.closeAllConnections();
      return new Promise((resolve) => supervisor.close(resolve));
    });
    const address = supervisor.address();
    if (!address || typeof address !== "object") throw new Error("no port");
    const config = await configWith({
      homeAssistant: { kind: "standalone", url: `http://127.0.0.1:${ha.port}`, token: HA_TOKEN },
      broker: { kind: "supervisor", url: `http://127.0.0.1:${address.port}`, token: SUPERVISOR_TOKEN },
    });
    const { app, logs, outcome, said } = startApp(config);
    await waitFor(() => answer);

    await app.stop();

    expect(await outcome()).toBe("ended");
    // Had the lookup gone on, this answer would take the start on to Home Assistant.
    answer?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(STARTED_AFTER_STORAGE.filter(said)).toEqual([]);
    // A lookup given up is not the Supervisor's failure.
    expect(said("the Supervisor's MQTT service could not be asked")).toBe(false);
    expect(ha.accepted).toBe(0);
    expect(sim.requests).toEqual([]);
    expect(logs.raw.join("\n")).not.toContain(SUPERVISOR_TOKEN);
  });

  it("ends the first connection to a Home Assistant that accepts and never answers", async () => {
    const ha = await silent();
    const config = await configWith({
      homeAssistant: { kind: "standalone", url: `http://127.0.0.1:${ha.port}`, token: HA_TOKEN },
      options: { publish: "rest" },
    });
    const { app, outcome, said } = startApp(config);
    await waitFor(() => ha.accepted > 0);

    await app.stop();

    expect(await outcome()).toBe("ended");
    expect(said("polling the Reward Facts API")).toBe(false);
    // The engine waited for Home Assistant, and was stopped with the rest.
    expect(sim.requests).toEqual([]);
  });

  it("ends the wait for the household lease: the MQTT broker is never connected before it is held", async () => {
    const [ha, broker] = [await silent(), await silent()];
    const config = await configWith({
      homeAssistant: { kind: "standalone", url: `http://127.0.0.1:${ha.port}`, token: HA_TOKEN },
      broker: { kind: "url", url: `mqtt://127.0.0.1:${broker.port}` },
      options: { publish: "mqtt" },
    });
    const { app, outcome, said } = startApp(config);
    // The lease is asked of Home Assistant before anything is published (the broker's birth message too).
    await waitFor(() => ha.accepted > 0);

    await app.stop();

    expect(await outcome()).toBe("ended");
    expect(said("polling the Reward Facts API")).toBe(false);
    expect(broker.accepted).toBe(0);
    expect(sim.requests).toEqual([]);
  });
});
