import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ApiSimulator } from "../../../src/simulator/index.js";
import { BridgeProcess } from "../../support/bridge-process.js";
import type { HomeAssistantInstance } from "../../support/home-assistant.js";
import { ownChildrenRunning } from "./proc-stats.js";

/** The bridge as users run it (a process of its own), with a fresh data dir, and its pid. */
export interface RunningBridge {
  process: BridgeProcess;
  pid: number;
  /** Date.now() just before the spawn. */
  spawnedAt: number;
  dataDir: string;
  stop(): Promise<void>;
}

export async function startBridge(
  sim: ApiSimulator,
  ha: HomeAssistantInstance,
  extraEnv: Record<string, string> = {},
): Promise<RunningBridge> {
  const dataDir = await mkdtemp(join(tmpdir(), "rf-bench-bridge-"));
  const known = new Set(await ownChildrenRunning("src/main.ts"));
  const spawnedAt = Date.now();
  const bridge = new BridgeProcess({
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    REWARD_FACTS_DATA_DIR: dataDir,
    HA_URL: ha.url,
    HA_TOKEN: ha.token,
    ...extraEnv,
  }).start();
  // BridgeProcess spawns node itself (no shell): the new child of this process running main.ts.
  let pid: number | undefined;
  for (let i = 0; i < 200 && pid === undefined; i++) {
    pid = (await ownChildrenRunning("src/main.ts")).find((p) => !known.has(p));
    if (pid === undefined) await sleep(5);
  }
  if (pid === undefined) {
    await bridge.kill();
    throw new Error("the bridge process did not show up in /proc");
  }
  return {
    process: bridge,
    pid,
    spawnedAt,
    dataDir,
    stop: async () => {
      await bridge.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
