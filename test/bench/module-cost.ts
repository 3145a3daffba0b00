// `npx tsx test/bench/module-cost.ts [--runtime machine|image|musl] [--runs N] MODULE...`
//
// What one of Node's own modules costs a process that loads it: an idle node that has required
// what the REST bridge loads anyway (BASE, less MODULE where it is one of them), with and without
// MODULE, its heap collected, then sampled from /proc. The medians of N runs of each, side by side, and their difference: the
// figure a stand-in of src/build/bundle-stand-ins.ts must beat by more than the noise
// (src/build/README.md). The runs of a round go in parallel, one process each.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { mebibytes } from "./format.js";
import { ProcSampler } from "./real/proc-stats.js";
import { commandFor, imageMuslNode, imageNode, machineNode, type NodeRuntime } from "./real/runtimes.js";
import { percentile } from "./stats.js";

/**
 * Node's modules the REST bridge loads in any case (the built bridge's process.moduleLoadList
 * against Home Assistant, public names only, 2026-11-28): what a module is measured on top of.
 */
export const BASE = [
  "assert",
  "async_hooks",
  "buffer",
  "crypto",
  "diagnostics_channel",
  "events",
  "fs",
  "fs/promises",
  "http",
  "module",
  "net",
  "os",
  "path",
  "perf_hooks",
  "querystring",
  "stream",
  "stream/promises",
  "string_decoder",
  "timers",
  "tty",
  "url",
  "util",
  "v8",
  "worker_threads",
];

/** Loading settles, and V8's memory reducer gives back what it took, some 8 s after the end. */
const SETTLE_MS = 12_000;
const SAMPLE_MS = 3_000;

interface Resident {
  anonBytes: number;
  fileBytes: number;
}

/** One idle node that has required `modules`: its mean resident memory over SAMPLE_MS. */
async function idleWith(runtime: NodeRuntime, modules: readonly string[]): Promise<Resident> {
  const script =
    `for (const name of ${JSON.stringify(modules)}) require("node:" + name);` +
    'for (let i = 0; i < 10; i++) gc(); process.stdout.write("ready\\n"); setInterval(() => {}, 2 ** 30);';
  const { command, args } = commandFor(runtime, ["--expose-gc", "-e", script]);
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = once(child, "exit");
  try {
    if (child.pid === undefined) throw new Error(`could not start ${runtime.execPath}`);
    await once(child.stdout, "data");
    await sleep(SETTLE_MS);
    const sampler = await new ProcSampler(child.pid, 500).start();
    await sleep(SAMPLE_MS);
    await sampler.stop();
    const mean = (pick: (s: Resident) => number) =>
      sampler.samples.reduce((sum, s) => sum + pick(s), 0) / sampler.samples.length;
    return { anonBytes: mean((s) => s.anonBytes), fileBytes: mean((s) => s.fileBytes) };
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

async function runtimeNamed(name: string): Promise<NodeRuntime> {
  if (name === "machine") return machineNode();
  if (name === "image") return imageNode();
  if (name === "musl") return imageMuslNode();
  throw new Error(`--runtime is machine, image or musl, not ${name}`);
}

async function main(argv: readonly string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { runtime: { type: "string" }, runs: { type: "string" } },
    allowPositionals: true,
  });
  const runtime = await runtimeNamed(values.runtime ?? "machine");
  const runs = Number(values.runs ?? "5");
  const modules = positionals.map((name) => name.replace(/^node:/, ""));
  // Each module on top of the base less itself: the sets to run, each once a round.
  const sets = new Map<string, string[]>();
  const key = (list: readonly string[]) => list.join(" ");
  const baseOf = (name: string) => BASE.filter((m) => m !== name);
  for (const name of modules) {
    for (const set of [baseOf(name), [...baseOf(name), name]]) sets.set(key(set), set);
  }
  const results = new Map<string, Resident[]>([...sets.keys()].map((k) => [k, []]));
  for (let run = 0; run < runs; run++) {
    const round = await Promise.all([...sets.values()].map((set) => idleWith(runtime, set)));
    for (const [i, set] of [...sets.values()].entries()) {
      const resident = round[i];
      if (resident) results.get(key(set))?.push(resident);
    }
    process.stderr.write(`round ${run + 1}/${runs} done\n`);
  }
  const median = (set: readonly string[], pick: (r: Resident) => number) =>
    percentile((results.get(key(set)) ?? []).map(pick), 50);
  process.stdout.write(
    `${runtime.label} (${runtime.version}, flags: ${runtime.flags.join(" ") || "none"}), medians of ${runs}, ` +
      "each module on top of what the REST bridge loads anyway:\n",
  );
  for (const name of modules) {
    const [without, withIt] = [baseOf(name), [...baseOf(name), name]];
    const anon = median(withIt, (r) => r.anonBytes) - median(without, (r) => r.anonBytes);
    const file = median(withIt, (r) => r.fileBytes) - median(without, (r) => r.fileBytes);
    process.stdout.write(
      `  ${name}: ${mebibytes(anon)} anonymous, ${mebibytes(file)} file-backed, ${mebibytes(anon + file)} in all\n`,
    );
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`module-cost: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
