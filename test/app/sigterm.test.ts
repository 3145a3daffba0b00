import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { STORE_FILE_NAME } from "../../src/store/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { silentServer } from "../support/silent-server.js";
import { waitFor } from "../support/wait-for.js";

// The Supervisor stops an add-on with SIGTERM and warns when it exits 143: the bridge stops
// cleanly, request in flight or not, with its store flushed, and exits 0 well within 5 s.

let sim: ApiSimulator;
beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: { historyDays: 0, factsPerHour: 0 } });
});
afterAll(async () => {
  await sim?.stop();
});

describe("SIGTERM", () => {
  it("stops cleanly with a request in flight, the store flushed, exit 0 within 5 s", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), "rf-sigterm-")), "data");
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "bravo" });
    const bridge = new BridgeProcess({
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
      REWARD_FACTS_DATA_DIR: dataDir,
    }).start();
    await waitFor(() => bridge.text().includes(fact.at), { timeoutMs: 20_000 });
    // The next requests hang: SIGTERM comes while one is in flight.
    sim.failNext(100, { kind: "slow", delayMs: 60_000 });
    // The next poll comes within 11 s (10 s ± 10 %) and hangs: the simulator logs it as it arrives.
    await waitFor(() => sim.requests.some((r) => r.fault === "slow"), {
      timeoutMs: 20_000,
      description: "a request held by the simulator",
    });

    const sent = Date.now();
    expect(await bridge.stop()).toBe(0);
    expect(Date.now() - sent).toBeLessThan(5_000);
    sim.clearFaults();
    const stored = JSON.parse(await readFile(join(dataDir, STORE_FILE_NAME), "utf8")) as {
      entries: Record<string, { value: unknown }>;
    };
    expect(stored.entries[`cursor:${sim.children.ordinary.id}`]?.value).toContain(fact.id);
    expect(bridge.text()).toMatch(/stopping/);
  }, 60_000);

  it("stops at once during start-up, while Home Assistant holds the first connection: exit 0, nothing read", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-sigterm-start-"));
    // Accepts the bridge's connection and never answers it: a Home Assistant that hangs at boot.
    const ha = await silentServer();
    try {
      const served = sim.requests.length;
      const bridge = new BridgeProcess({
        REWARD_FACTS_API_TOKEN: sim.tokens.household,
        REWARD_FACTS_API_BASE_URL: sim.url,
        REWARD_FACTS_DATA_DIR: join(dir, "data"),
        REWARD_FACTS_HEARTBEAT_FILE: join(dir, "heartbeat"),
        HA_URL: `http://127.0.0.1:${ha.port}`,
        HA_TOKEN: "ha-token-that-must-never-show-0123456789",
      }).start();
      await waitFor(() => ha.accepted > 0, { timeoutMs: 20_000 });

      expect(await bridge.stop()).toBe(0);
      expect(bridge.text()).toMatch(/stopping/);
      // The start ended with the stop: no wait for the Supervisor's time, nothing polled after.
      expect(bridge.text()).not.toContain("stop took too long");
      expect(bridge.text()).not.toContain("polling the Reward Facts API");
      expect(sim.requests.length).toBe(served);
    } finally {
      await ha.close();
    }
  }, 60_000);
});
