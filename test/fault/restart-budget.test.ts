import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { busiestMinute } from "../support/busiest-minute.js";

// A bridge in a crash loop (killed and started again 5 times within a minute) keeps to the API's
// 30 requests a minute: the budget's window is kept in the data directory, not in the process.

const RESTARTS = 5;
const BUDGET = 28;

let sim: ApiSimulator;
beforeAll(async () => {
  // The spec's limit, sliding; three children whose first round is 7 requests per start.
  sim = await ApiSimulator.start({ activity: { historyDays: 0, factsPerHour: 0 } });
});
afterAll(async () => {
  await sim?.stop();
});

describe("restarts and the rate budget", () => {
  it(`${RESTARTS} restarts within a minute: never a 429, never more than ${BUDGET} in any 60 s`, async () => {
    const env = {
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
      REWARD_FACTS_TODAY_INTERVAL_SECONDS: "15",
      REWARD_FACTS_DATA_DIR: join(await mkdtemp(join(tmpdir(), "rf-restarts-")), "data"),
    };
    const started = Date.now();
    const runs: BridgeProcess[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const run = new BridgeProcess(env).start();
      runs.push(run);
      // Long enough for a start's first round (discovery, then each child's journal and today).
      await sleep(9_000);
      await run.kill();
    }
    const last = new BridgeProcess(env).start();
    runs.push(last);
    // Past the minute the restarts took, and a full window more.
    await sleep(Math.max(0, started + 105_000 - Date.now()));
    expect(await last.stop()).toBe(0);

    const served = sim.requests.filter((r) => r.token === "household");
    expect(served.filter((r) => r.status === 429)).toEqual([]);
    expect(busiestMinute(served.map((r) => r.at))).toBeLessThanOrEqual(BUDGET);
    // Not a bridge that did nothing: the budget was used, and every child was read.
    expect(served.length).toBeGreaterThan(BUDGET);
    const { ordinary, custody, unsynced } = sim.children;
    for (const child of [ordinary, custody, unsynced]) {
      expect(served.some((r) => r.path.startsWith(`/children/${child.id}/today`))).toBe(true);
    }
    for (const run of runs) expect(run.text()).not.toContain(sim.tokens.household);
  }, 180_000);
});
