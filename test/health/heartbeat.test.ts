import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Heartbeat } from "../../src/health/heartbeat.js";
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

describe("the main loop's heartbeat", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is written at the first turn, then once a minute however often the loop turns", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T10:00:00Z") });
    const file = join(await mkdtemp(join(tmpdir(), "rf-heartbeat-")), "heartbeat");
    const heartbeat = new Heartbeat(file);
    const written = () => readFile(file, "utf8").then((text) => text.trim());
    heartbeat.beat();
    expect(await written()).toBe("2026-11-27T10:00:00.000Z");
    for (let turn = 0; turn < 20; turn++) {
      vi.advanceTimersByTime(2_950);
      heartbeat.beat();
    }
    expect(await written()).toBe("2026-11-27T10:00:00.000Z");
    vi.advanceTimersByTime(1_000);
    heartbeat.beat();
    expect(await written()).toBe("2026-11-27T10:01:00.000Z");
  });
});
