// `npm run bench`: every benchmark, printed as tables and written as markdown (see cli-args.ts).
import { mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { EXIT_USAGE, usageLine } from "../../src/cli-usage.js";
import { BenchUsageError, benchUsage, isFullRun, parseBenchArgs } from "./cli-args.js";
import { costSection } from "./cost/section.js";
import { deliverySection } from "./delivery/section.js";
import { goalsSection } from "./goals/summary.js";
import { type RunInfo, readmeBlock, resultsDocument } from "./report/document.js";
import { describeMachine } from "./report/machine.js";
import { replaceReadmeBlock } from "./report/readme.js";
import type { Section } from "./report/section.js";
import { terminalSection } from "./report/terminal.js";
import { restartsSection } from "./restarts/section.js";
import { sideBySideSection } from "./side-by-side/section.js";
import { virtualSections } from "./virtual/sections.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

async function main(argv: readonly string[]): Promise<number> {
  let args: ReturnType<typeof parseBenchArgs>;
  try {
    args = parseBenchArgs(argv);
  } catch (error) {
    if (!(error instanceof BenchUsageError)) throw error;
    process.stderr.write(`${usageLine("npm run bench", error.message)}\n`);
    return EXIT_USAGE;
  }
  if (args.help) {
    process.stdout.write(`${benchUsage}\n`);
    return 0;
  }
  const started = performance.now();
  const date = new Date();
  const has = (id: (typeof args.sections)[number]) => args.sections.includes(id);
  const sections: Section[] = [];
  const show = (added: readonly Section[]) => {
    for (const section of added) process.stdout.write(`${terminalSection(section)}\n`);
    sections.push(...added);
  };

  show(await virtualSections({ budget: has("budget"), catchup: has("catchup"), quick: args.quick }));
  // In the order of issue 12's goals: fresh, polite, restarts, lean.
  if (has("side-by-side")) show([await sideBySideSection(args.quick)]);
  if (has("restarts")) show([await restartsSection()]);
  if (has("cost")) show([await costSection(args.quick, args.eachFlag)]);
  // Issue 48: delivery, not the API, must not become the limit in MQTT mode.
  if (has("delivery")) show([await deliverySection(args.quick)]);

  // The goals of every section in one table: printed last here, first in the written results.
  const goals = goalsSection(sections);
  if (goals) process.stdout.write(`${terminalSection(goals)}\n`);
  const written = goals ? [goals, ...sections] : sections;

  const info: RunInfo = {
    date,
    machine: await describeMachine(),
    command: `npm run bench${argv.length > 0 ? ` -- ${argv.join(" ")}` : ""}`,
    elapsedMs: performance.now() - started,
  };
  const full = isFullRun(args);
  const out =
    args.out ?? (full ? join(root, "test/bench/results.md") : join(tmpdir(), "reward-facts-bench.md"));
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, resultsDocument(info, written));
  process.stdout.write(`\nMarkdown written to ${out}\n`);
  const block = readmeBlock(info, written, relative(join(root, BENCH_README_DIR), out));
  if (full) {
    const readme = join(root, BENCH_README_DIR, "README.md");
    const replaced = await replaceReadmeBlock(readme, block);
    process.stdout.write(
      replaced
        ? `${relative(root, readme)}: the block between the bench markers now shows this run.\n`
        : `${relative(root, readme)} has no <!-- bench:start --> / <!-- bench:end --> markers: left as it is.\n`,
    );
  } else {
    // What the README would show, beside the markdown: to look at, never to commit (not a full run).
    const preview = out.replace(/(\.md)?$/, ".readme-block.md");
    await writeFile(preview, `${block}\n`);
    process.stdout.write(`README block (a preview: the bench's README untouched) written to ${preview}\n`);
  }
  return 0;
}

/** The bench's README, which holds the latest full run between its markers. */
const BENCH_README_DIR = "test/bench";

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
