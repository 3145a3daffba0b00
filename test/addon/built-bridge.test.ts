import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId, STATUS_ENTITY_ID } from "../../src/ha/entities/entity-names.js";
import type { Cheer } from "../../src/simulator/facts.js";
import type { ApiSimulator } from "../../src/simulator/index.js";
import {
  type EventRecorder,
  type HomeAssistantInstance,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { type BuiltBridge, buildBridgeApart } from "../support/built-bridge.js";
import { suiteOnRig } from "../support/lab-bridges.js";

// What the image runs (`npm run build`'s bundle, with no node_modules anywhere above it) against a
// real Home Assistant, in each publishing mode: every other suite runs the TypeScript sources, with
// the repository's packages at hand. A package the bundle cannot carry fails here, not in a home.

const version = testedHomeAssistantVersion();

let built: BuiltBridge;
// The bundle is built while the rig starts (the bridges it runs are the suite's: launch).
const lab = suiteOnRig(async () => {
  const [bundle, rig] = await Promise.all([buildBridgeApart(), startMqttRig(version)]);
  built = bundle;
  return rig;
});
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let events: EventRecorder;

beforeAll(async () => {
  ({ ha, sim } = lab.rig);
  events = await ha.subscribeEvents("reward_facts_event");
});

afterAll(async () => {
  await events?.close();
  await built?.remove();
});

/** The bundle, from the folder standing for the image's /app, on a data dir of its own. */
async function startBuilt(env: Record<string, string>): Promise<{ run: BridgeProcess; heartbeat: string }> {
  const dir = await mkdtemp(join(tmpdir(), "rf-built-run-"));
  const heartbeat = join(dir, "heartbeat");
  const run = await lab.start({
    children: [sim.children.ordinary.id],
    dataDir: join(dir, "data"),
    env: { REWARD_FACTS_HEARTBEAT_FILE: heartbeat, ...env },
    launch: built.launch,
  });
  return { run, heartbeat };
}

/**
 * Node options that make the bridge write, as it exits, which of Node's own modules it loaded
 * (process.moduleLoadList: `NativeModule http`, …) to `file`.
 */
function recordLoadedModules(file: string): Record<string, string> {
  const script = `import { writeFileSync } from "node:fs";
process.on("exit", () => writeFileSync(${JSON.stringify(file)}, JSON.stringify(process.moduleLoadList)));`;
  return { NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(script)}` };
}

/** A fact recorded in the app now, and Home Assistant's bus event for it once it arrives. */
async function factReachesAutomations(cheer: Cheer) {
  const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer });
  const fired = await ha.waitFor(() => events.events.find((e) => e.data.event_id === fact.id), {
    timeoutMs: 60_000,
    description: `the bus event of fact ${fact.id}`,
  });
  return fired.data;
}

const minutes = childEntityId("lea", "minutes_remaining");
const holdsNumber = (state: { state: string }) =>
  state.state.trim() !== "" && !Number.isNaN(Number(state.state));

describe(`the bundle the image runs, on Home Assistant ${version}`, () => {
  it("publishes states and delivers a fact over REST, healthy while it runs", async () => {
    const loadedFile = join(await mkdtemp(join(tmpdir(), "rf-built-modules-")), "loaded.json");
    const { run, heartbeat } = await startBuilt({
      REWARD_FACTS_PUBLISH: "rest",
      ...recordLoadedModules(loadedFile),
    });
    await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 60_000 });
    expect(
      Number((await ha.waitForState(minutes, holdsNumber, { timeoutMs: 60_000 })).state),
    ).toBeGreaterThanOrEqual(0);
    expect(await factReachesAutomations("bravo")).toMatchObject({ type: "cheer_sent", redelivered: false });
    const check = await promisify(execFile)(process.execPath, [built.healthCheck], {
      env: { PATH: process.env.PATH ?? "", REWARD_FACTS_HEARTBEAT_FILE: heartbeat },
    }).then(
      () => 0,
      (error: { code: number }) => error.code,
    );
    expect(check).toBe(0);
    expect(await run.stop()).toBe(0);
    expect(run.text()).not.toContain(sim.tokens.household);
    expect(run.text()).not.toContain(ha.token);
    // Nothing of Node's that this mode does not use (the ledger, src/build/README.md): the bundle's
    // stand-ins keep undici's HTTP/2 and ws's TLS (on http:// here) out, the ws global
    // (src/ha/link/socket-opening.ts) Node's own copy of undici, while ws's handshake, checked by Home
    // Assistant, went through.
    const recorded = await readFile(loadedFile, "utf8");
    await rm(dirname(loadedFile), { recursive: true, force: true });
    const loaded = (JSON.parse(recorded) as string[])
      .filter((entry) => entry.startsWith("NativeModule "))
      .map((entry) => entry.slice("NativeModule ".length));
    expect(loaded).toContain("http");
    expect(
      loaded.filter((name) => ["http2", "tls", "https", "internal/deps/undici/undici"].includes(name)),
    ).toEqual([]);
  }, 180_000);

  it("registers its entities and delivers a fact over MQTT", async () => {
    const { run } = await startBuilt({});
    await ha.waitFor(
      async () => {
        const registry = await ha.wsCommand<Array<{ entity_id: string; platform: string }>>({
          type: "config/entity_registry/list",
        });
        return registry.some((entry) => entry.entity_id === minutes && entry.platform === "mqtt");
      },
      { timeoutMs: 90_000, description: `${minutes} registered by MQTT discovery` },
    );
    expect(await factReachesAutomations("super")).toMatchObject({ type: "cheer_sent", redelivered: false });
    expect(await run.stop()).toBe(0);
    expect(run.text()).not.toContain(lab.rig.user.password);
    expect(run.text()).not.toContain(sim.tokens.household);
  }, 180_000);
});
