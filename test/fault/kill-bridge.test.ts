import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { seededRandom } from "../support/engine-rig.js";
import { eventLogConfig, loggedEventIds } from "../support/ha-event-log.js";
import {
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
} from "../support/home-assistant.js";
import { testedHomeAssistantVersion } from "../support/tested-version.js";

// 50 SIGKILLs of the bridge at random moments while 5,000 facts flow into a real Home
// Assistant: in the end every fact reached Home Assistant's automations exactly once.

const KILLS = 50;
const FACTS = 5_000;
const version = testedHomeAssistantVersion();

let ha: HomeAssistantInstance;
let sim: ApiSimulator;
const runs: BridgeProcess[] = [];

beforeAll(async () => {
  [ha, sim] = await Promise.all([
    startHomeAssistant({ ...eventLogConfig, version }),
    // This test is about crashes: the API lets every restart catch up at once.
    ApiSimulator.start({ activity: false, rateLimitPerMinute: 1_000_000 }),
  ]);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  for (const run of runs) await run.kill();
  await ha?.stop();
  await sim?.stop();
});

describe(`kill -9 of the bridge, on Home Assistant ${version}`, () => {
  it(`delivers ${FACTS} facts exactly once across ${KILLS} SIGKILLs`, async () => {
    const { ordinary, custody } = sim.children;
    const env = {
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
      REWARD_FACTS_TODAY_INTERVAL_SECONDS: "15",
      REWARD_FACTS_CHILDREN: `${ordinary.id},${custody.id}`,
      REWARD_FACTS_DATA_DIR: join(await mkdtemp(join(tmpdir(), "rf-kill-ha-")), "data"),
      REWARD_FACTS_LOG_LEVEL: "warning",
      HA_URL: ha.url,
      HA_TOKEN: ha.token,
    };
    let produced = 0;
    const producer = setInterval(() => {
      // Two facts per child every 50 ms, some sharing one instant: 5,000 in about a minute.
      for (const child of [ordinary, custody]) {
        if (produced < FACTS) produced += sim.addEvents(child.id, 2).length;
      }
    }, 50);

    const random = seededRandom(20261121);
    let killedWhileDelivering = 0;
    try {
      for (let i = 0; i < KILLS; i++) {
        const run = new BridgeProcess(env).start();
        runs.push(run);
        const before = (await loggedEventIds(ha)).length;
        await sleep(700 + random() * 1_800);
        await run.kill();
        if ((await loggedEventIds(ha)).length > before) killedWhileDelivering++;
      }
    } finally {
      await ha.waitFor(() => produced >= FACTS, { timeoutMs: 60_000 }).catch(() => undefined);
      clearInterval(producer);
    }

    const journal = [...sim.journal(ordinary.id), ...sim.journal(custody.id)].map((e) => e.id);
    expect(journal).toHaveLength(FACTS);
    const last = new BridgeProcess(env).start();
    runs.push(last);
    // The last run drains what the short-lived ones left, at the budget's 28 requests a minute.
    // On timeout, go on to the assertions: they name the missing or repeated facts.
    await ha
      .waitFor(async () => (await loggedEventIds(ha)).length >= FACTS, {
        timeoutMs: 240_000,
        intervalMs: 500,
      })
      .catch(() => undefined);
    await sleep(2_000);
    expect(await last.stop()).toBe(0);

    const logged = await loggedEventIds(ha);
    const repeated = logged.filter((id, i) => logged.indexOf(id) !== i);
    const missing = journal.filter((id) => !logged.includes(id));
    expect({ repeated, missing }).toEqual({ repeated: [], missing: [] });
    expect(logged).toHaveLength(FACTS);
    // The kills landed while facts were flowing into Home Assistant, not only between polls.
    expect(killedWhileDelivering).toBeGreaterThan(KILLS / 3);
    for (const run of runs) {
      expect(run.text()).not.toContain(sim.tokens.household);
      expect(run.text()).not.toContain(ha.token);
    }
  }, 600_000);
});
