import { spawn } from "node:child_process";
import { once } from "node:events";
import { commandFor, type NodeRuntime } from "../real/runtimes.js";

/**
 * From spawning a node that only writes one line (with the runtime's flags) until that line
 * arrives: the floor under the bridge's start-up, which cannot show a state before node runs its
 * first line. Measured `runs` times, one after the other.
 */
export async function nodeBootTimes(runtime: NodeRuntime, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await bootOnce(runtime));
  return times;
}

async function bootOnce(runtime: NodeRuntime): Promise<number> {
  const spawnedAt = Date.now();
  const { command, args } = commandFor(runtime, ["-e", 'process.stdout.write("up\\n")']);
  const child = spawn(command, args, {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = once(child, "exit");
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  const at = Date.now();
  await exited;
  if (!String(chunk).startsWith("up")) throw new Error(`${runtime.execPath} wrote ${String(chunk)}`);
  return at - spawnedAt;
}
