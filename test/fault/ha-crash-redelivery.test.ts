import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiSimulator } from "../../src/simulator/index.js";
import {
  type HomeAssistantInstance,
  loggedEvents,
  startDeliveryRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { oneDayAhead } from "../support/household-days.js";
import { suiteOnRig } from "../support/lab-bridges.js";
import { afterReadings } from "../support/served-reads.js";

const version = testedHomeAssistantVersion();

// Home Assistant answers a delivery once it has fired the event; a SIGKILL a moment later can
// take what the event set off (a queued automation run) with it, and its delivery records come
// back from its last save. The facts it answered shortly before it died go again, marked
// `redelivered`; a clean restart (states saved) sends nothing again. A bridge killed together with
// Home Assistant finds those facts in its data directory when it starts again. Facts derived from a
// child's day (a behavior she declared) are owed the same way, against their own record.

const lab = suiteOnRig(() => startDeliveryRig(version));
/**
 * The window in which a fact Home Assistant answered may still be owed after it died: 30 s in a
 * user's bridge, shortened here so that "answered longer ago than the window" takes seconds. Room
 * for a loaded machine between the recent facts' answers and the kill.
 */
const WINDOW_MS = 10_000;
const env = { REWARD_FACTS_TEST_REDELIVERY_WINDOW_MS: String(WINDOW_MS) };
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let bridge: BridgeProcess | undefined;

beforeAll(() => {
  ({ ha, sim } = lab.rig);
});

/** Each logged arrival's `redelivered`, per fact id, in order. */
async function arrivals(ids: readonly string[]): Promise<Record<string, unknown[]>> {
  const logged = await loggedEvents(ha);
  return Object.fromEntries(
    ids.map((id) => [id, logged.filter((data) => data.event_id === id).map((data) => data.redelivered)]),
  );
}

async function waitLogged(id: string, times = 1): Promise<void> {
  await ha.waitFor(async () => ((await arrivals([id]))[id] ?? []).length >= times, {
    timeoutMs: 60_000,
    description: `fact ${id} logged ${times} time(s) by the automation`,
  });
}

describe(`Home Assistant ${version} killed just after it answered facts`, () => {
  it("gets the facts it answered in the last moments again, marked redelivered; after a clean restart, none", async () => {
    const child = sim.addChild("Lou", { planned: false });
    bridge = await lab.start({ children: [child.id], env });

    const old = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
    await waitLogged(old.id);
    // Answered longer ago than the window: whatever it set off has long run.
    await sleep(WINDOW_MS + 2_000);
    const first = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
    const second = sim.addEvent(child.id, {
      type: "behavior_validated",
      behaviorId: "b1",
      label: "Make the bed",
    });
    const recent = [first, second];
    await waitLogged(second.id);
    await ha.kill();
    await ha.restart();
    for (const fact of recent) await waitLogged(fact.id, 2);
    expect(await arrivals([old.id, ...recent.map((fact) => fact.id)])).toEqual({
      [old.id]: [false],
      [first.id]: [false, true],
      [second.id]: [false, true],
    });
    expect(bridge.text()).toContain("Home Assistant restarted without the last facts it had answered");

    // A clean restart saves the records: nothing is owed, nothing goes again.
    const beforeStop = sim.addEvent(child.id, { type: "cheer_sent", cheer: "seen" });
    await waitLogged(beforeStop.id);
    await ha.restart();
    const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
    await waitLogged(after.id);
    // Two more poll rounds: a repeat would come in them.
    await afterReadings(sim, child.id, "events", 2);
    expect(await arrivals([beforeStop.id, after.id])).toEqual({
      [beforeStop.id]: [false],
      [after.id]: [false],
    });
    expect(bridge.text()).not.toContain(sim.tokens.household);
    expect(bridge.text()).not.toContain(ha.token);
  }, 300_000);

  it("after Home Assistant and the bridge were killed together, the next bridge sends those facts again, marked", async () => {
    await bridge?.kill();
    const child = sim.addChild("Zoé", { planned: false });
    bridge = await lab.start({ children: [child.id], env });
    const old = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
    await waitLogged(old.id);
    await sleep(WINDOW_MS + 2_000);
    const recent = [
      sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" }),
      sim.addEvent(child.id, { type: "behavior_validated", behaviorId: "b1", label: "Make the bed" }),
    ];
    await waitLogged((recent[1] as (typeof recent)[number]).id);
    // The host's OOM killer, say: neither says goodbye, and only the data directory remembers.
    await Promise.all([bridge.kill(), ha.kill()]);
    await ha.restart();
    const first = bridge;
    bridge = lab.again(first);
    for (const fact of recent) await waitLogged(fact.id, 2);
    expect(await arrivals([old.id, ...recent.map((fact) => fact.id)])).toEqual({
      [old.id]: [false],
      ...Object.fromEntries(recent.map((fact) => [fact.id, [false, true]])),
    });
    expect(first.text()).not.toContain("Home Assistant restarted without the last facts it had answered");
    expect(bridge.text()).toContain("Home Assistant restarted without the last facts it had answered");

    // The bridge alone killed, Home Assistant kept everything: nothing goes again.
    const beforeKill = sim.addEvent(child.id, { type: "cheer_sent", cheer: "seen" });
    await waitLogged(beforeKill.id);
    await bridge.kill();
    bridge = lab.again(bridge);
    const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
    await waitLogged(after.id);
    await afterReadings(sim, child.id, "events", 2);
    expect(await arrivals([beforeKill.id, after.id])).toEqual({
      [beforeKill.id]: [false],
      [after.id]: [false],
    });
    expect(bridge.text()).not.toContain("Home Assistant restarted without the last facts it had answered");
  }, 300_000);

  it("gets the derived facts it answered in the last moments again, marked, beside the journal's", async () => {
    await bridge?.kill();
    // One household day for the scene: a new one would bring its own facts (day_started).
    await oneDayAhead(sim.timeZone, 180_000);
    const child = sim.addChild("Maël", { planned: false });
    const [early, late] = sim.behaviors(child.id);
    if (!early || !late) throw new Error("a child of the simulator has behaviors");
    bridge = await lab.start({ children: [child.id], env });
    // Her day read once: a first reading makes no fact.
    await ha.waitFor(() => ha.getState("sensor.reward_facts_mael_minutes_remaining"), { timeoutMs: 60_000 });
    const declaredId = async (behaviorId: string) =>
      ha.waitFor(
        async () =>
          (await loggedEvents(ha)).find(
            (data) =>
              data.type === "behavior_declared" &&
              data.child_id === child.id &&
              data.behavior_id === behaviorId,
          )?.event_id as string | undefined,
        { timeoutMs: 60_000, description: `behavior ${behaviorId} declared, fired` },
      );
    sim.declareBehavior(child.id, early.id);
    const old = await declaredId(early.id);
    // Answered longer ago than the window: whatever it set off has long run.
    await sleep(WINDOW_MS + 2_000);
    sim.declareBehavior(child.id, late.id);
    const cheer = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
    const recent = await declaredId(late.id);
    await waitLogged(cheer.id);
    await ha.kill();
    await ha.restart();
    for (const id of [recent, cheer.id]) await waitLogged(id, 2);
    expect(await arrivals([old, recent, cheer.id])).toEqual({
      [old]: [false],
      [recent]: [false, true],
      [cheer.id]: [false, true],
    });
    expect(bridge.text()).toContain("Home Assistant restarted without the last facts it had answered");
    // Every arrival of a derived fact says so.
    const derived = (await loggedEvents(ha)).filter((data) => data.child_id === child.id && data.derived);
    expect(derived.map((data) => data.type)).toEqual([
      "behavior_declared",
      "behavior_declared",
      "behavior_declared",
    ]);
  }, 300_000);
});
