import { beforeAll, describe, expect, it } from "vitest";
import type { ApiSimulator } from "../../src/simulator/index.js";
import {
  type HomeAssistantInstance,
  loggedEventIds,
  loggedEvents,
  startDeliveryRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { oneDayAhead } from "../support/household-days.js";
import { suiteOnRig } from "../support/lab-bridges.js";
import { afterReadings } from "../support/served-reads.js";

const version = testedHomeAssistantVersion();

// The two moments of a delivery where a crash used to lose or could repeat a fact, hit on
// purpose: the bridge pauses there (a test hook, REWARD_FACTS_TEST_PAUSE) and is SIGKILLed.
// - after_claim: the fact is noted as being sent, and has not left. After the restart it must
//   arrive, once, and as news (not marked redelivered: Home Assistant never had it).
// - before_ack: Home Assistant has fired the fact and answered; the bridge dies before noting
//   the answer. After the restart it must not be fired again. A fact derived from the child's day
//   neither, whatever journal fact goes first after the restart (each stream has its own record).

const lab = suiteOnRig(() => startDeliveryRig(version));
let ha: HomeAssistantInstance;
let sim: ApiSimulator;

beforeAll(() => {
  ({ ha, sim } = lab.rig);
});

/** A child of its own per test, so that each run's first fact is the one under test. */
function newChild(childName: string): string {
  return sim.addChild(childName, { planned: false }).id;
}

/**
 * Runs a bridge following the child until it pauses at `moment` for the fact, then SIGKILLs it
 * there; the killed run, whose data directory the next run starts on.
 */
async function killAt(
  moment: "after_claim" | "before_ack",
  childId: string,
  factId: string | ((run: BridgeProcess) => Promise<string>),
): Promise<BridgeProcess> {
  const run = await lab.start({ children: [childId], env: { REWARD_FACTS_TEST_PAUSE: `${moment}:60000` } });
  const id = typeof factId === "string" ? factId : await factId(run);
  await ha.waitFor(() => run.text().includes("test pause in a delivery") && run.text().includes(id), {
    timeoutMs: 60_000,
    description: `the bridge paused ${moment}`,
  });
  await run.kill();
  return run;
}

/**
 * Starts the killed bridge again, without the pause, until the fact is logged (and, if given, the
 * bridge has said `says`), then two more journal polls of the child: a repeat would come in them.
 */
async function restartUntilLogged(killed: BridgeProcess, childId: string, factId: string, says?: string) {
  const run = lab.again(killed, { REWARD_FACTS_TEST_PAUSE: "" });
  await ha.waitFor(async () => (await loggedEventIds(ha)).includes(factId), { timeoutMs: 60_000 });
  if (says)
    await ha.waitFor(() => run.text().includes(says), {
      timeoutMs: 60_000,
      description: () => `the bridge saying "${says}"; it said:\n${run.text()}`,
    });
  await afterReadings(sim, childId, "events", 2);
  expect(await run.stop()).toBe(0);
  return run;
}

describe(`a kill inside a delivery, on Home Assistant ${version}`, () => {
  it("between the claim and the send: the fact arrives once after the restart, as news", async () => {
    const childId = newChild("Zoé");
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const fact = sim.addEvent(childId, { type: "cheer_sent", cheer: "super" });
      const killed = await killAt("after_claim", childId, fact.id);
      expect(await loggedEventIds(ha)).not.toContain(fact.id);
      const run = await restartUntilLogged(killed, childId, fact.id);
      expect((await loggedEventIds(ha)).filter((id) => id === fact.id)).toHaveLength(1);
      const fired = events.events.filter((e) => e.data.event_id === fact.id);
      expect(fired.map((e) => e.data.redelivered)).toEqual([false]);
      expect(run.text()).not.toContain(sim.tokens.household);
    } finally {
      await events.close();
    }
  }, 180_000);

  it("after Home Assistant fired it, before the answer was noted: not fired again", async () => {
    const childId = newChild("Yann");
    const fact = sim.addEvent(childId, { type: "cheer_sent", cheer: "bravo" });
    const killed = await killAt("before_ack", childId, fact.id);
    // Fired before the pause; the automation logs it a moment after.
    await ha.waitFor(async () => (await loggedEventIds(ha)).includes(fact.id), {
      description: "the fact logged before the kill",
    });
    await restartUntilLogged(killed, childId, fact.id, "had arrived already");
    expect((await loggedEventIds(ha)).filter((id) => id === fact.id)).toHaveLength(1);
  }, 180_000);

  it("a derived fact, after Home Assistant fired it, before the answer was noted: not fired again", async () => {
    // One household day for the scene: a new one would bring its own facts (day_started).
    await oneDayAhead(sim.timeZone, 180_000);
    const childId = newChild("Gaspard");
    const [behavior] = sim.behaviors(childId);
    if (!behavior) throw new Error("a child of the simulator has behaviors");
    const declared = async () =>
      (await loggedEvents(ha)).filter(
        (data) => data.type === "behavior_declared" && data.child_id === childId,
      );
    const killed = await killAt("before_ack", childId, async () => {
      // Her day read once (a first reading makes no fact); then she declares a behavior in the app.
      await ha.waitFor(() => ha.getState("sensor.reward_facts_gaspard_minutes_remaining"), {
        timeoutMs: 60_000,
        description: "Gaspard's day read",
      });
      sim.declareBehavior(childId, behavior.id);
      const [fired] = await ha.waitFor(
        async () => {
          const found = await declared();
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: 60_000, description: "behavior_declared fired" },
      );
      return String(fired?.event_id);
    });
    const [fired] = await declared();
    expect(fired).toMatchObject({ derived: true, behavior_id: behavior.id, redelivered: false });
    // A journal fact to go first after the restart: the journal's record then names it, and only
    // the derived facts' own record still tells that the declared behavior arrived.
    const cheer = sim.addEvent(childId, { type: "cheer_sent", cheer: "seen" });
    await restartUntilLogged(killed, childId, cheer.id, "had arrived already");
    expect(await declared()).toHaveLength(1);
    expect((await loggedEventIds(ha)).filter((id) => id === cheer.id)).toHaveLength(1);
  }, 240_000);
});
