import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiSimulator } from "../../../src/simulator/index.js";
import type { HomeAssistantInstance } from "../../lab/index.js";
import { BridgeProcess } from "../../support/bridge-process.js";
import { buildBridge } from "./build.js";
import { compiledMain } from "./paths.js";
import { commandFor, machineNode, type NodeRuntime } from "./runtimes.js";

/** The bridge as users run it (the compiled `dist/src/main.js`, a process of its own) and its pid. */
export interface RunningBridge {
  process: BridgeProcess;
  pid: number;
  /** Date.now() just before the spawn. */
  spawnedAt: number;
  dataDir: string;
  stop(): Promise<void>;
}

export interface BridgeOptions {
  /** The machine's Node (`npm start`) unless told otherwise. */
  runtime?: NodeRuntime;
  /** Kept across starts (a restart); a fresh one, removed at stop, when not given. */
  dataDir?: string;
  env?: Record<string, string>;
}

/** Starts the compiled bridge against the simulator and, when given, a Home Assistant. */
export async function startBridge(
  sim: ApiSimulator,
  ha: HomeAssistantInstance | undefined,
  options: BridgeOptions = {},
): Promise<RunningBridge> {
  await buildBridge();
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "rf-bench-bridge-")));
  const spawnedAt = Date.now();
  const bridge = new BridgeProcess(
    {
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      REWARD_FACTS_DATA_DIR: dataDir,
      ...(ha ? { HA_URL: ha.url, HA_TOKEN: ha.token } : {}),
      ...options.env,
    },
    commandFor(options.runtime ?? machineNode(), [compiledMain]),
  ).start();
  const pid = bridge.pid;
  if (pid === undefined) throw new Error("the bridge process did not start");
  return {
    process: bridge,
    pid,
    spawnedAt,
    dataDir,
    stop: async () => {
      await bridge.stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
