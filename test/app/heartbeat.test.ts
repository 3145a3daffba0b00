import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { waitFor } from "../support/wait-for.js";

const check = fileURLToPath(new URL("../../src/health/check.ts", import.meta.url));

function healthCheck(file: string): number | null {
  return spawnSync(process.execPath, ["--import", "tsx", check], {
    env: { ...process.env, REWARD_FACTS_HEARTBEAT_FILE: file },
  }).status;
}

let sim: ApiSimulator;
beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: false });
});
afterAll(async () => {
  await sim?.stop();
});

describe("the container's health check", () => {
  it("is healthy while the main loop beats, unhealthy when the beat is old or missing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-health-"));
    const file = join(dir, "heartbeat");
    expect(healthCheck(file)).toBe(1);
    const bridge = new BridgeProcess({
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      REWARD_FACTS_DATA_DIR: join(dir, "data"),
      REWARD_FACTS_HEARTBEAT_FILE: file,
    }).start();
    try {
      await waitFor(() => existsSync(file), { timeoutMs: 20_000 });
      expect(healthCheck(file)).toBe(0);
    } finally {
      expect(await bridge.stop()).toBe(0);
    }
    const fourMinutesAgo = new Date(Date.now() - 4 * 60_000);
    await utimes(file, fourMinutesAgo, fourMinutesAgo);
    expect(healthCheck(file)).toBe(1);
  }, 60_000);
});
