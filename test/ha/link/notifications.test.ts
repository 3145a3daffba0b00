import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineStatus } from "../../../src/engine/sink.js";
import { STATUS_ENTITY_ID } from "../../../src/ha/entities/entity-names.js";
import { BROKER_NOTIFICATION_ID, TOKEN_NOTIFICATION_ID } from "../../../src/ha/index.js";
import { createLogger } from "../../../src/log/logger.js";
import { CuttableLink, type HaEvent, startMqttRig, testedHomeAssistantVersion } from "../../lab/index.js";
import type { BridgeProcess } from "../../support/bridge-process.js";
import { type LabBridgeOptions, suiteOnRig } from "../../support/lab-bridges.js";
import { ownLinkSink } from "../../support/own-link-sink.js";

// A notification goes when its cause is gone, whichever run of the bridge raised it (issue 41,
// probe 12): an earlier run raised it (here, a service call does it for that run), was killed or
// restarted once its cause was fixed, and the new run dismisses it on connecting, once.

const version = testedHomeAssistantVersion();
const OURS = [TOKEN_NOTIFICATION_ID, BROKER_NOTIFICATION_ID];

const lab = suiteOnRig(() => startMqttRig(version));
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  // A test's bridge ends with it: still running, it would dismiss what the next test raises.
  for (const run of lab.runs) await run.kill();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The ids of the notifications Home Assistant shows now (theirs and ours). */
async function shown(): Promise<string[]> {
  const list = await lab.rig.ha.wsCommand<Array<{ notification_id: string }>>({
    type: "persistent_notification/get",
  });
  return list.map((n) => n.notification_id);
}

/** What an earlier run of the bridge left: both notifications, raised as it raises them. */
async function raisedByAnEarlierRun(): Promise<void> {
  for (const id of OURS)
    await lab.rig.ha.callService("persistent_notification", "create", {
      notification_id: id,
      title: "raised by an earlier run",
      message: "an earlier run of the bridge raised this",
    });
  expect(await shown()).toEqual(expect.arrayContaining(OURS));
}

/** A bridge following Léa, on a data directory of its own. */
const bridge = (options: LabBridgeOptions = {}): Promise<BridgeProcess> =>
  lab.start({ children: [lab.rig.sim.children.ordinary.id], ...options });

/** Waits until none of ours is shown, then for the status `ok`; the bridge's output on a timeout. */
async function goneWithStatusOk(run: BridgeProcess): Promise<void> {
  let last: string[] = [];
  try {
    await lab.rig.ha.waitFor(
      async () => {
        last = await shown();
        return last.every((id) => !OURS.includes(id));
      },
      { timeoutMs: 60_000, description: () => `our notifications gone (shown: ${last.join(", ")})` },
    );
    await lab.rig.ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 30_000 });
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
    const calls = await lab.rig.ha.subscribeEvents("call_service");
    cleanups.push(() => calls.close());
    const noticeCalls = () => calls.events.filter((e) => e.data.domain === "persistent_notification");
    const dismissalsOfOurs = () =>
      noticeCalls().filter(
        (e) => e.data.service === "dismiss" && OURS.includes(serviceData(e)?.notification_id ?? ""),
      ).length;
    await raisedByAnEarlierRun();
    const link = await CuttableLink.open(lab.rig.ha.url);
    const logged: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logged.push(chunk.toString("utf8"));
        callback();
      },
    });
    const sink = ownLinkSink({
      url: link.url,
      token: lab.rig.ha.token,
      logger: createLogger({ level: "debug", destination, secrets: [lab.rig.ha.token] }),
      requireAdmin: true,
    });
    const abort = new AbortController();
    cleanups.push(async () => {
      abort.abort();
      await sink.close();
      await link.close();
    });
    /** What was seen so far, for a failure: the notification calls recorded and the sink's lines. */
    const seen = () =>
      `calls: ${noticeCalls()
        .map((e) => `${e.data.service as string} ${serviceData(e)?.notification_id}`)
        .join(", ")}\nthe sink said:\n${logged.join("")}`;
    /**
     * Every call made so far is recorded once a call made after them is: Home Assistant sends
     * one socket's events in the order it fires them. Then the count of dismissals is final.
     */
    const dismissalsSoFar = async (marker: string) => {
      await lab.rig.ha.callService("persistent_notification", "dismiss", { notification_id: marker });
      await lab.rig.ha.waitFor(() => calls.events.some((e) => serviceData(e)?.notification_id === marker), {
        timeoutMs: 30_000,
        description: () => `the call ${marker} recorded (${seen()})`,
      });
      return dismissalsOfOurs();
    };
    await sink.open();
    await sink.whenReady(abort.signal);
    for (let i = 0; i < 3; i++) await sink.publishStatus({ ...ok, requestsLastMinute: i });
    await lab.rig.ha.waitFor(async () => (await shown()).every((id) => !OURS.includes(id)), {
      description: () => `our notifications gone (${seen()})`,
    });
    expect(await dismissalsSoFar("marker_1"), seen()).toBe(2);
    // A new connection: what Home Assistant shows is unknown again, so each is dismissed once more.
    link.cut();
    await lab.rig.ha.waitFor(() => !sink.ready, { intervalMs: 10 });
    await sink.whenReady(abort.signal);
    for (let i = 0; i < 3; i++) await sink.publishStatus({ ...ok, requestsLastMinute: i });
    expect(await dismissalsSoFar("marker_2"), seen()).toBe(4);
  }, 120_000);

  it("a bridge publishing states through REST dismisses both (no broker: nothing left to refuse)", async () => {
    await raisedByAnEarlierRun();
    // The rig's broker left out (an empty variable is none).
    const noBroker = { MQTT_URL: "", MQTT_USERNAME: "", MQTT_PASSWORD: "" };
    await goneWithStatusOk(await bridge({ publish: "rest", env: noBroker }));
  }, 120_000);

  it("a bridge the broker accepts, with a working token, dismisses both (MQTT mode)", async () => {
    await raisedByAnEarlierRun();
    await goneWithStatusOk(await bridge());
  }, 120_000);
});
