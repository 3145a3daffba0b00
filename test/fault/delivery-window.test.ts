import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiSimulator } from "../../src/simulator/index.js";
import {
  type DeliveryRig,
  type HomeAssistantInstance,
  loggedEventIds,
  loggedEvents,
  startDeliveryRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { oneDayAhead } from "../support/household-days.js";

const version = testedHomeAssistantVersion();

// The two moments of a delivery where a crash used to lose or could repeat a fact, hit on
// purpose: the bridge pauses there (a test hook, REWARD_FACTS_TEST_PAUSE) and is SIGKILLed.
// - after_claim: the fact is noted as being sent, and has not left. After the restart it must
//   arrive, once, and as news (not marked redelivered: Home Assistant never had it).
// - before_ack: Home Assistant has fired the fact and answered; the bridge dies before noting
//   the answer. After the restart it must not be fired again. A fact derived from the child's day
//   neither, whatever journal fact goes first after the restart (each stream has its own record).

let rig: DeliveryRig | undefined;
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
const runs: BridgeProcess[] = [];

beforeAll(async () => {
  rig = await startDeliveryRig(version);
  ({ ha, sim } = rig);
}, 900_000);

afterAll(async () => {
  for (const run of runs) await run.kill();
  await rig?.stop();
});

/** A child of its own per test, so that each run's first fact is the one under test. */
async function bridgeEnv(childName: string): Promise<{ env: Record<string, string>; childId: string }> {
  const child = sim.addChild(childName, { planned: false });
  const env = {
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
    REWARD_FACTS_TODAY_INTERVAL_SECONDS: "15",
    REWARD_FACTS_CHILDREN: child.id,
    REWARD_FACTS_DATA_DIR: join(await mkdtemp(join(tmpdir(), "rf-window-")), "data"),
    HA_URL: ha.url,
    HA_TOKEN: ha.token,
  };
  return { env, childId: child.id };
}

/** Runs the bridge until it pauses at `moment` for the fact, then SIGKILLs it there. */
async function killAt(
  moment: "after_claim" | "before_ack",
  env: Record<string, string>,
  factId: string | ((run: BridgeProcess) => Promise<string>),
) {
  const run = new BridgeProcess({ ...env, REWARD_FACTS_TEST_PAUSE: `${moment}:60000` }).start();
  runs.push(run);
  const id = typeof factId === "string" ? factId : await factId(run);
  await ha.waitFor(() => run.text().includes("test pause in a delivery") && run.text().includes(id), {
    timeoutMs: 60_000,
    description: `the bridge paused ${moment}`,
  });
  await run.kill();
}

/** Starts the bridge again until the fact is logged (and, if given, the bridge has said `says`). */
async function restartUntilLogged(env: Record<string, string>, factId: string, says?: string) {
  const run = new BridgeProcess(env).start();
  runs.push(run);
  await ha.waitFor(async () => (await loggedEventIds(ha)).includes(factId), { timeoutMs: 60_000 });
  if (says)
    await ha.waitFor(() => run.text().includes(says), {
      timeoutMs: 60_000,
      description: () => `the bridge saying "${says}"; it said:\n${run.text()}`,
    });
  // Two more poll rounds: a repeat would come in them.
  await new Promise((resolve) => setTimeout(resolve, 22_000));
  expect(await run.stop()).toBe(0);
  return run;
}

describe(`a kill inside a delivery, on Home Assistant ${version}`, () => {
  it("between the claim and the send: the fact arrives once after the restart, as news", async () => {
    const { env, childId } = await bridgeEnv("Zoé");
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const fact = sim.addEvent(childId, { type: "cheer_sent", cheer: "super" });
      await killAt("after_claim", env, fact.id);
      expect(await loggedEventIds(ha)).not.toContain(fact.id);
      const run = await restartUntilLogged(env, fact.id);
      expect((await loggedEventIds(ha)).filter((id) => id === fact.id)).toHaveLength(1);
      const fired = events.events.filter((e) => e.data.event_id === fact.id);
      expect(fired.map((e) => e.data.redelivered)).toEqual([false]);
      expect(run.text()).not.toContain(sim.tokens.household);
    } finally {
      await events.close();
    }
  }, 180_000);

  it("after Home Assistant fired it, before the answer was noted: not fired again", async () => {
    const { env, childId } = await bridgeEnv("Yann");
    const fact = sim.addEvent(childId, { type: "cheer_sent", cheer: "bravo" });
    await killAt("before_ack", env, fact.id);
    // Fired before the pause; the automation logs it a moment after.
    await ha.waitFor(async () => (await loggedEventIds(ha)).includes(fact.id), {
      description: "the fact logged before the kill",
    });
    await restartUntilLogged(env, fact.id, "had arrived already");
    expect((await loggedEventIds(ha)).filter((id) => id === fact.id)).toHaveLength(1);
  }, 180_000);

  it("a derived fact, after Home Assistant fired it, before the answer was noted: not fired again", async () => {
    // One household day for the scene: a new one would bring its own facts (day_started).
    await oneDayAhead(sim.timeZone, 180_000);
    const { env, childId } = await bridgeEnv("Gaspard");
    const [behavior] = sim.behaviors(childId);
    if (!behavior) throw new Error("a child of the simulator has behaviors");
    const declared = async () =>
      (await loggedEvents(ha)).filter(
        (data) => data.type === "behavior_declared" && data.child_id === childId,
      );
    await killAt("before_ack", env, async () => {
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
    await restartUntilLogged(env, cheer.id, "had arrived already");
    expect(await declared()).toHaveLength(1);
    expect((await loggedEventIds(ha)).filter((id) => id === cheer.id)).toHaveLength(1);
  }, 240_000);
});
