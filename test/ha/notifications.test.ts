import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EngineStatus } from "../../src/engine/sink.js";
import { STATUS_ENTITY_ID } from "../../src/ha/entity-names.js";
import { HaSink } from "../../src/ha/ha-sink.js";
import { BROKER_NOTIFICATION_ID, TOKEN_NOTIFICATION_ID } from "../../src/ha/index.js";
import { silentLogger } from "../../src/log/logger.js";
import {
  CuttableLink,
  type HaEvent,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type MqttRig,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { BridgeProcess } from "../support/bridge-process.js";

// A notification goes when its cause is gone, whichever run of the bridge raised it (issue 41,
// probe 12): an earlier run raised it (here, a service call does it for that run), was killed or
// restarted once its cause was fixed, and the new run dismisses it on connecting, once.

const version = testedHomeAssistantVersion();
const OURS = [TOKEN_NOTIFICATION_ID, BROKER_NOTIFICATION_ID];

let rig: MqttRig;
const runs: BridgeProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  rig = await startMqttRig(version);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterEach(async () => {
  for (const run of runs.splice(0)) await run.kill();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

afterAll(async () => {
  await rig?.stop();
});

/** The ids of the notifications Home Assistant shows now (theirs and ours). */
async function shown(): Promise<string[]> {
  const list = await rig.ha.wsCommand<Array<{ notification_id: string }>>({
    type: "persistent_notification/get",
  });
  return list.map((n) => n.notification_id);
}

/** What an earlier run of the bridge left: both notifications, raised as it raises them. */
async function raisedByAnEarlierRun(): Promise<void> {
  for (const id of OURS)
    await rig.ha.callService("persistent_notification", "create", {
      notification_id: id,
      title: "raised by an earlier run",
      message: "an earlier run of the bridge raised this",
    });
  expect(await shown()).toEqual(expect.arrayContaining(OURS));
}

async function bridge(env: Record<string, string>): Promise<BridgeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), "rf-notifications-"));
  const run = new BridgeProcess({
    ...env,
    REWARD_FACTS_CHILDREN: rig.sim.children.ordinary.id,
    REWARD_FACTS_DATA_DIR: dataDir,
  }).start();
  runs.push(run);
  return run;
}

/** Waits until none of ours is shown, then for the status `ok`; the bridge's output on a timeout. */
async function goneWithStatusOk(run: BridgeProcess): Promise<void> {
  let last: string[] = [];
  try {
    await rig.ha.waitFor(
      async () => {
        last = await shown();
        return last.every((id) => !OURS.includes(id));
      },
      { timeoutMs: 60_000, description: () => `our notifications gone (shown: ${last.join(", ")})` },
    );
    await rig.ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 30_000 });
  } catch (error) {
    throw new Error(`${(error as Error).message}\nthe bridge said:\n${run.text()}`);
  }
}

const serviceData = (event: HaEvent) => event.data.service_data as { notification_id?: string } | undefined;

const ok: EngineStatus = {
  state: "ok",
  requestsLastMinute: 1,
  budgetPerMinute: 30,
  demandPerMinute: 3,
  stretch: 1,
  todayStretch: 1,
  children: [],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: 0,
};

describe(`notifications of an earlier run, on Home Assistant ${version}`, () => {
  it("dismisses each once per connection, not at every status publish", async () => {
    const calls = await rig.ha.subscribeEvents("call_service");
    cleanups.push(() => calls.close());
    const dismissalsOfOurs = () =>
      calls.events.filter(
        (e) =>
          e.data.domain === "persistent_notification" &&
          e.data.service === "dismiss" &&
          OURS.includes(serviceData(e)?.notification_id ?? ""),
      ).length;
    await raisedByAnEarlierRun();
    const link = await CuttableLink.open(rig.ha.url);
    const sink = new HaSink({
      url: link.url,
      token: rig.ha.token,
      logger: silentLogger(),
      requireAdmin: true,
    });
    const abort = new AbortController();
    cleanups.push(async () => {
      abort.abort();
      await sink.close();
      await link.close();
    });
    await sink.open();
    await sink.whenReady(abort.signal);
    for (let i = 0; i < 3; i++) await sink.publishStatus({ ...ok, requestsLastMinute: i });
    await rig.ha.waitFor(async () => (await shown()).every((id) => !OURS.includes(id)));
    await rig.ha.waitFor(() => dismissalsOfOurs() >= 2);
    // A new connection: what Home Assistant shows is unknown again, so each is dismissed once more.
    link.cut();
    await rig.ha.waitFor(() => !sink.ready, { intervalMs: 10 });
    await sink.whenReady(abort.signal);
    for (let i = 0; i < 3; i++) await sink.publishStatus({ ...ok, requestsLastMinute: i });
    // Exactly two per connection: a call made after them all is recorded after them all.
    await rig.ha.callService("persistent_notification", "dismiss", { notification_id: "marker" });
    await rig.ha.waitFor(() => calls.events.some((e) => serviceData(e)?.notification_id === "marker"));
    expect(dismissalsOfOurs()).toBe(4);
  }, 120_000);

  it("a bridge publishing states through REST dismisses both (no broker: nothing left to refuse)", async () => {
    await raisedByAnEarlierRun();
    const { MQTT_URL: _url, MQTT_USERNAME: _user, MQTT_PASSWORD: _password, ...rest } = rig.bridgeEnv;
    await goneWithStatusOk(await bridge({ ...rest, REWARD_FACTS_PUBLISH: "rest" }));
  }, 120_000);

  it("a bridge the broker accepts, with a working token, dismisses both (MQTT mode)", async () => {
    await raisedByAnEarlierRun();
    await goneWithStatusOk(await bridge(rig.bridgeEnv));
  }, 120_000);
});
