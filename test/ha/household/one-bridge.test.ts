import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectAsync } from "mqtt";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STATUS_ENTITY_ID } from "../../../src/ha/entities/entity-names.js";
import {
  CuttableLink,
  clockOffEnv,
  ensureFaketime,
  type HaEvent,
  type HomeAssistantInstance,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../../lab/index.js";
import { type BridgeLaunch, type BridgeProcess, bridgeFromSources } from "../../support/bridge-process.js";
import { suiteOnRig } from "../../support/lab-bridges.js";
import { afterReadings } from "../../support/served-reads.js";
import { waitFor } from "../../support/wait-for.js";

// One bridge per household, with the real bridge's processes against a real Home Assistant and a
// real Mosquitto: a second bridge beside the first (another data directory) publishes nothing and
// says so; the first, killed and restarted on its data directory, is not taken for a second one;
// once the first stops, the second takes over. The second reads the other household's token, so
// that anything it read or published would show as that household's. Two bridges whose clocks are
// an hour apart, and two processes of one copied data directory, fire each fact once (issue 53:
// both published, every fact twice).

const version = testedHomeAssistantVersion();
/** Beats of the household lease in this suite (60 s in use): it expires after three. */
const BEAT_S = 2;
const REFUSAL = /another Reward Facts bridge already publishes to this Home Assistant/;

const lab = suiteOnRig(() => startMqttRig(version));
let ha: HomeAssistantInstance;

beforeAll(async () => {
  ha = lab.rig.ha;
  await ensureFaketime();
});

// Each test begins with no bridge running, the lease given up by a clean stop.
beforeEach(async () => {
  for (const run of lab.runs) await run.stop();
});

/** A bridge in MQTT mode on a data directory of its own, its lease beating every BEAT_S. */
const bridge = (env: Record<string, string> = {}): Promise<BridgeProcess> =>
  lab.start({ publish: "mqtt", env: { REWARD_FACTS_TEST_LEASE_SECONDS: String(BEAT_S), ...env } });

/** Retained topics on the broker, as another client reads them. */
async function retainedTopics(): Promise<string[]> {
  const reader = await connectAsync(lab.rig.broker.url, {
    ...lab.rig.user,
    clientId: `reader-${Date.now()}`,
  });
  const found = new Set<string>();
  try {
    reader.on("message", (topic, _payload, packet) => {
      if (packet.retain) found.add(topic);
    });
    await reader.subscribeAsync("#");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  } finally {
    await reader.endAsync();
  }
  return [...found].sort();
}

async function registered(): Promise<string[]> {
  const entries = await ha.wsCommand<Array<{ entity_id: string }>>({ type: "config/entity_registry/list" });
  return entries.map((e) => e.entity_id).filter((id) => id.includes("reward_facts"));
}

async function notificationIds(): Promise<string[]> {
  const shown = await ha.wsCommand<Array<{ notification_id: string }>>({
    type: "persistent_notification/get",
  });
  return shown.map((n) => n.notification_id);
}

const polling = (run: BridgeProcess) =>
  run.output.filter((line) => line.includes("polling the Reward Facts API")).length;

/** The bridge's own program on a host of another name (its own UTS namespace): another machine. */
function onAnotherHost(hostname: string): BridgeLaunch {
  return {
    command: "unshare",
    args: [
      "--uts",
      "sh",
      "-c",
      'hostname "$0" && exec "$@"',
      hostname,
      bridgeFromSources.command,
      ...bridgeFromSources.args,
    ],
  };
}

/** Facts of `childId` added now; resolves once each fired, and two more journal polls passed. */
async function factsThrough(childId: string, events: HaEvent[], count = 3): Promise<string[]> {
  const { sim } = lab.rig;
  const ids = Array.from(
    { length: count },
    () => sim.addEvent(childId, { type: "cheer_sent", cheer: "bravo" }).id,
  );
  await ha.waitFor(() => ids.every((id) => events.some((e) => e.data.event_id === id)), {
    timeoutMs: 60_000,
    description: "the facts fired",
  });
  await afterReadings(sim, childId, "events", 2);
  return ids;
}

const firedTimes = (events: HaEvent[], ids: readonly string[]) =>
  ids.map((id) => events.filter((e) => e.data.event_id === id).length);

describe(`one bridge per household, Home Assistant ${version}`, () => {
  it("holds one websocket to Home Assistant: the lease's and the sink's link is one (issue 54: two)", async () => {
    const relay = await CuttableLink.open(ha.url);
    const run = await bridge({ HA_URL: relay.url });
    try {
      await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 90_000 });
      const events = await ha.subscribeEvents("reward_facts_event");
      try {
        // At work: facts fired, the lease renewed at its beats, the states written through REST.
        await factsThrough(lab.rig.sim.children.ordinary.id, events.events, 1);
        await new Promise((resolve) => setTimeout(resolve, 2 * BEAT_S * 1000));
        expect(relay.openWebsockets, run.text()).toBe(1);
      } finally {
        await events.close();
      }
    } finally {
      // Through the relay still: its lease given up by a clean stop, for the next test.
      await run.stop();
      await relay.close();
    }
  }, 180_000);

  it("refuses a second bridge, restarts the first in place, and hands over when the first stops", async () => {
    const { sim } = lab.rig;
    let first = await bridge();
    await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 90_000 });

    // Killed, and restarted on its data directory: the same bridge, publishing again at once.
    await first.kill();
    first = lab.again(first);
    await waitFor(() => polling(first) === 1, { timeoutMs: 60_000, description: "the first polls again" });
    expect(first.text()).not.toMatch(REFUSAL);
    await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 60_000 });

    const topics = await retainedTopics();
    const entities = await registered();
    const second = await bridge({ REWARD_FACTS_API_TOKEN: sim.tokens.other });
    await waitFor(() => REFUSAL.test(second.text()), { timeoutMs: 60_000, description: "the refusal" });
    await ha.waitFor(async () => (await notificationIds()).includes("reward_facts_another_bridge"), {
      timeoutMs: 10_000,
    });
    const notification = (
      await ha.wsCommand<Array<{ notification_id: string; message: string }>>({
        type: "persistent_notification/get",
      })
    ).find((n) => n.notification_id === "reward_facts_another_bridge");
    // Names both: the one publishing (with its process) and the one waiting.
    expect(notification?.message).toContain(`process ${first.pid}`);
    expect(notification?.message).toContain(`process ${second.pid}`);

    // Five beats later: still one line, nothing of the second's anywhere, the first still at work.
    const firstLines = first.output.length;
    await new Promise((resolve) => setTimeout(resolve, 5 * BEAT_S * 1000));
    expect(second.output.filter((line) => REFUSAL.test(line))).toHaveLength(1);
    expect(second.text()).not.toMatch(/connecting to Home Assistant|polling the Reward Facts API/);
    expect(sim.requests.filter((request) => request.token === "other")).toEqual([]);
    expect(await retainedTopics()).toEqual(topics);
    expect(await registered()).toEqual(entities);
    expect((await ha.getState(STATUS_ENTITY_ID))?.state).toBe("ok");
    expect(first.running).toBe(true);
    expect(first.output.length).toBeGreaterThanOrEqual(firstLines);
    expect(first.text()).not.toMatch(REFUSAL);

    // The first stops (and gives the lease up): the second takes over within a beat or two.
    expect(await first.stop()).toBe(0);
    await waitFor(() => polling(second) === 1, { timeoutMs: 30_000, description: "the second takes over" });
    expect(second.text()).toContain("the other bridge's household lease ended: this bridge publishes now");
    await ha.waitFor(async () => !(await notificationIds()).includes("reward_facts_another_bridge"), {
      timeoutMs: 10_000,
    });
    expect(second.text()).not.toContain(sim.tokens.other);
  }, 300_000);

  it("fires each fact once with two bridges whose clocks are an hour apart", async () => {
    const { sim } = lab.rig;
    const child = sim.addChild("Oscar", { planned: false });
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const first = await bridge({ REWARD_FACTS_CHILDREN: child.id });
      await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 90_000 });
      // Its host an hour ahead: the first's renewals look an hour old by its clock.
      const ahead = await bridge({ REWARD_FACTS_CHILDREN: child.id, ...clockOffEnv("+60m") });
      await waitFor(() => REFUSAL.test(ahead.text()), { timeoutMs: 60_000, description: "the refusal" });
      const ids = await factsThrough(child.id, events.events);
      // Beats of the first pass meanwhile: the one ahead still waits.
      await new Promise((resolve) => setTimeout(resolve, 4 * BEAT_S * 1000));
      expect(firedTimes(events.events, ids)).toEqual([1, 1, 1]);
      expect(polling(ahead)).toBe(0);
      expect(first.running).toBe(true);
    } finally {
      await events.close();
    }
  }, 240_000);

  it("fires each fact once with two processes of one copied data directory, said in one line", async () => {
    const { sim } = lab.rig;
    const child = sim.addChild("Rose", { planned: false });
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const original = await bridge({ REWARD_FACTS_CHILDREN: child.id });
      await ha.waitForState(STATUS_ENTITY_ID, "ok", { timeoutMs: 90_000 });
      // Moved to standalone on another machine while the add-on still runs: the same identity.
      const copied = join(await mkdtemp(join(tmpdir(), "rf-copied-")), "data");
      await cp(original.env.REWARD_FACTS_DATA_DIR as string, copied, { recursive: true });
      const copy = await lab.start({
        publish: "mqtt",
        children: [child.id],
        dataDir: copied,
        launch: onAnotherHost("laptop"),
        env: { REWARD_FACTS_TEST_LEASE_SECONDS: String(BEAT_S) },
      });
      const COPY = /runs with this bridge's own identity/;
      await waitFor(() => COPY.test(copy.text()), { timeoutMs: 60_000, description: "the copy's line" });
      const before = await factsThrough(child.id, events.events);
      await new Promise((resolve) => setTimeout(resolve, 3 * BEAT_S * 1000));
      expect(firedTimes(events.events, before)).toEqual([1, 1, 1]);
      expect(copy.output.filter((line) => COPY.test(line))).toHaveLength(1);
      expect(polling(copy)).toBe(0);

      // The original stops: the copy publishes from where it left off, nothing twice.
      expect(await original.stop()).toBe(0);
      await waitFor(() => polling(copy) === 1, { timeoutMs: 30_000, description: "the copy takes over" });
      const after = await factsThrough(child.id, events.events);
      expect(firedTimes(events.events, [...before, ...after])).toEqual([1, 1, 1, 1, 1, 1]);
    } finally {
      await events.close();
    }
  }, 240_000);
});
