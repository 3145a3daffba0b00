import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiSimulator } from "../../../src/simulator/index.js";
import { type RunningBridge, startBridge } from "../real/bridge.js";
import { machineNode } from "../real/runtimes.js";
import type { RestartsParams } from "./params.js";

export interface RestartsObservation {
  params: RestartsParams;
  runtime: { label: string; version: string };
  /** Spawn instants of every start, the last one included, and when the last kill was done. */
  spawnedAt: number[];
  lastKillAt: number;
  end: number;
  /** Every request the simulator answered for the token, by arrival. */
  requests: Array<{ at: number; status: number; path: string }>;
  children: string[];
  /** The exit code of the last start, stopped by SIGTERM. */
  lastExit: number | null;
}

/**
 * A crash loop as the add-on's watchdog makes one: the compiled bridge started and killed
 * `kills` times with one data dir (as /data is kept), then started once more and left running
 * past a full window, against the simulator's 30 a minute (the spec's, sliding).
 */
export async function runRestarts(params: RestartsParams): Promise<RestartsObservation> {
  const sim = await ApiSimulator.start({ activity: { historyDays: 0, factsPerHour: 0 } });
  const dataDir = await mkdtemp(join(tmpdir(), "rf-bench-restarts-"));
  const runtime = machineNode();
  const spawnedAt: number[] = [];
  let current: RunningBridge | undefined;
  try {
    for (let i = 0; i < params.kills; i++) {
      current = await startBridge(sim, undefined, { runtime, dataDir });
      spawnedAt.push(current.spawnedAt);
      await sleep(params.lifeMs);
      await current.process.kill();
      current = undefined;
    }
    const lastKillAt = Date.now();
    log(`${params.kills} starts killed within ${((lastKillAt - (spawnedAt[0] ?? 0)) / 1000).toFixed(1)} s`);
    current = await startBridge(sim, undefined, { runtime, dataDir });
    spawnedAt.push(current.spawnedAt);
    await sleep(Math.max(0, (spawnedAt[0] ?? 0) + params.observeMs - Date.now()));
    const lastExit = await current.process.stop();
    current = undefined;
    return {
      params,
      runtime: { label: runtime.label, version: runtime.version },
      spawnedAt,
      lastKillAt,
      end: Date.now(),
      requests: sim.requests
        .filter((r) => r.token === "household")
        .map((r) => ({ at: r.at, status: r.status, path: r.path })),
      children: [sim.children.ordinary.id, sim.children.custody.id, sim.children.unsynced.id],
      lastExit,
    };
  } finally {
    await current?.process.kill();
    await sim.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

function log(message: string): void {
  process.stderr.write(`[bench restarts] ${message}\n`);
}
