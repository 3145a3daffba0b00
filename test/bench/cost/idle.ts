import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { type ProcSample, ProcSampler } from "../real/proc-stats.js";
import type { NodeRuntime } from "../real/runtimes.js";

/** An idle node on one runtime, for scale and as the floor of the lean goals. */
export interface IdleResult {
  runtime: NodeRuntime;
  webAssembly: boolean;
  samples: ProcSample[];
  /** Spawn → its first line run, each of a few fresh processes (see boot.ts). */
  bootMs: number[];
}

/** Before sampling: node has loaded and settled. */
const SETTLE_MS = 1_000;

/** A node that does nothing but wait, with the runtime's flags: the floor any node process pays. */
export async function sampleIdleNode(
  runtime: NodeRuntime,
  ms: number,
  sampleMs: number,
): Promise<ProcSample[]> {
  const child = spawn(runtime.execPath, [...runtime.flags, "-e", "setInterval(() => {}, 2 ** 30)"], {
    stdio: "ignore",
  });
  const exited = once(child, "exit");
  try {
    if (child.pid === undefined) throw new Error(`could not start ${runtime.execPath}`);
    await sleep(SETTLE_MS);
    const sampler = await new ProcSampler(child.pid, sampleMs).start();
    await sleep(ms);
    await sampler.stop();
    return [...sampler.samples].sort((a, b) => a.at - b.at);
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}
