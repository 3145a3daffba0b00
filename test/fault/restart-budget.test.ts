import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { busiestMinute } from "../support/busiest-minute.js";
import { waitFor } from "../support/wait-for.js";

// A bridge in a crash loop (killed and started again 5 times within a minute) keeps to the API's
// 30 requests a minute: the budget's window is kept in the data directory, not in the process.

const RESTARTS = 5;
const BUDGET = 28;
/** A start's first round: the children's list, then each of the three children's journal and day. */
const FIRST_ROUND = 7;

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
    const runs: BridgeProcess[] = [];
    const servedCount = () => sim.requests.filter((r) => r.token === "household").length;
    for (let i = 0; i < RESTARTS; i++) {
      const before = servedCount();
      const run = new BridgeProcess(env).start();
      runs.push(run);
      // Killed once its first round is in (the children's list, then each child's journal and day:
      // 7 requests), or once the budget holds it back (nothing more for 2 s), and at most after 9 s.
      const deadline = Date.now() + 9_000;
      let last = { count: before, at: Date.now() };
      await waitFor(
        () => {
          const count = servedCount();
          if (count !== last.count) last = { count, at: Date.now() };
          const heldBack = count > before && Date.now() - last.at >= 2_000;
          return count - before >= FIRST_ROUND || heldBack || Date.now() >= deadline;
        },
        { timeoutMs: 10_000, intervalMs: 50 },
      );
      await run.kill();
    }
    const last = new BridgeProcess(env).start();
    runs.push(last);
    // Every 60 s window holding a request of the loop ends within a minute of the last run's start:
    // watched whole, with the last run polling at its budget meanwhile.
    await sleep(65_000);
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
