import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DeliveryRig,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  startDeliveryRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { type KillRoundOutcome, runBridgeKills } from "../support/kill-scenario.js";

// 50 SIGKILLs of the bridge at random moments while 5,000 facts flow into a real Home
// Assistant: in the end every fact reached Home Assistant's automations exactly once.
// `npm run soak` runs the same round five times, with the machine's cores kept busy.

const KILLS = 50;
const FACTS = 5_000;
const version = testedHomeAssistantVersion();

let rig: DeliveryRig;
let outcome: KillRoundOutcome | undefined;

beforeAll(async () => {
  // This test is about crashes: the API lets every restart catch up at once.
  rig = await startDeliveryRig(version, { activity: false, rateLimitPerMinute: 1_000_000 });
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  for (const run of outcome?.runs ?? []) await run.kill();
  await rig?.stop();
});

describe(`kill -9 of the bridge, on Home Assistant ${version}`, () => {
  it(`delivers ${FACTS} facts, and the facts derived among them, exactly once across ${KILLS} SIGKILLs`, async () => {
    const { ha, sim } = rig;
    outcome = await runBridgeKills({ ha, sim, kills: KILLS, facts: FACTS, seed: 20261121 });
    // The journal's facts, and a behavior_declared for each of Léa's five behaviors.
    const derived = outcome.journal.filter((id) => id.startsWith("derived:"));
    expect(derived.map((id) => id.split(":")[3])).toEqual(Array(5).fill("behavior_declared"));
    expect(outcome.journal).toHaveLength(FACTS + derived.length);
    expect({ repeated: outcome.repeated, missing: outcome.missing }).toEqual({ repeated: [], missing: [] });
    expect(outcome.logged).toHaveLength(FACTS + derived.length);
    expect(outcome.lastExit).toBe(0);
    // The kills landed while facts were flowing into Home Assistant, not only between polls.
    expect(outcome.killedWhileDelivering).toBeGreaterThan(KILLS / 3);
    for (const run of outcome.runs) {
      expect(run.text()).not.toContain(sim.tokens.household);
      expect(run.text()).not.toContain(ha.token);
    }
  }, 600_000);
});
