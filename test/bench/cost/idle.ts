import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { benchRoot } from "../real/paths.js";
import { type ProcSample, ProcSampler } from "../real/proc-stats.js";
import { commandFor, type NodeRuntime } from "../real/runtimes.js";

/** An idle node on one runtime, for scale and as the floor of the lean goals. */
export interface IdleResult {
  runtime: NodeRuntime;
  webAssembly: boolean;
  samples: ProcSample[];
  /**
   * The same idle node once it has imported the packages the REST bridge runs on, as installed (each
   * file as node loads it), and done nothing with them: for scale beside the bundle the bridge runs.
   */
  loadedSamples: ProcSample[];
  /** Spawn → its first line run, each of a few fresh processes (see boot.ts). */
  bootMs: number[];
}

/**
 * Before sampling: node has loaded (and imported) and settled. V8's memory reducer gives back what
 * loading took some 8 s after it ends (seen on Node 20: 27 → 21 MiB anonymous with the packages);
 * the bridge's window starts minutes after its start.
 */
const SETTLE_MS = 12_000;

/** Dependencies only the MQTT mode imports: the REST bridge never loads them. */
const MQTT_ONLY = new Set(["mqtt"]);

/** What the REST bridge imports of the runtime dependencies (package.json): all of them but MQTT's. */
export async function restPackages(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(benchRoot, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(manifest.dependencies ?? {}).filter((name) => !MQTT_ONLY.has(name));
}

/**
 * A node that does nothing but wait, with the runtime's flags: the floor any node process pays.
 * With packages, it imports them first (from the project, as the bridge resolves them), then waits.
 */
export async function sampleIdleNode(
  runtime: NodeRuntime,
  ms: number,
  sampleMs: number,
  packages: readonly string[] = [],
): Promise<ProcSample[]> {
  // Full collections once imported, as a process running for minutes has had: what loading left
  // behind is not held, nor the bytecode of functions never run again (V8 flushes it after a few
  // collections). --expose-gc only gives the script gc(); the heap is the runtime's.
  const script =
    `await Promise.all(${JSON.stringify(packages)}.map((name) => import(name))); for (let i = 0; i < 10; i++) gc();` +
    'process.stdout.write("ready\\n"); setInterval(() => {}, 2 ** 30);';
  const { command, args } = commandFor(runtime, ["--expose-gc", "--input-type=module", "-e", script]);
  const child = spawn(command, args, {
    cwd: benchRoot,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  try {
    if (child.pid === undefined) throw new Error(`could not start ${runtime.execPath}`);
    const ready = once(child.stdout, "data");
    await Promise.race([
      ready,
      exited.then(([code]) => {
        throw new Error(`the idle node exited (${code}) before it was ready`);
      }),
    ]);
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
