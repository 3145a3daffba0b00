import type { Reporter, TestModule } from "vitest/node";

/*
 * Where a run's time goes: after every run, the files that took longest in their worker (set-up,
 * import, hooks and tests: what a worker is busy with, sleeping included), so that a contributor
 * sees what to make faster before the suite grows past CI's wall. test/README.md keeps the top of
 * a full run's list.
 */

export interface FileDuration {
  /** The vitest project (the Home Assistant release, or the fast layer). */
  project: string;
  file: string;
  /** Milliseconds in its worker: preparation, set-up files, import, hooks and tests. */
  totalMs: number;
  /** Of which in tests. */
  testsMs: number;
}

/** How many files the list at the end of a run names. */
const SHOWN = 15;

/** What a test module cost its worker, from vitest's own diagnostic. */
export function durationOf(module: TestModule): FileDuration {
  const d = module.diagnostic();
  let testsMs = 0;
  for (const test of module.children.allTests()) testsMs += test.diagnostic()?.duration ?? 0;
  return {
    project: module.project.name,
    file: module.relativeModuleId,
    totalMs:
      d.prepareDuration + d.environmentSetupDuration + d.setupDuration + d.collectDuration + d.duration,
    testsMs,
  };
}

/** The slowest `shown` files, longest first, with their share of the run's worker time. */
export function slowestFiles(durations: readonly FileDuration[], shown = SHOWN): string {
  const sorted = [...durations].sort((a, b) => b.totalMs - a.totalMs);
  const all = sorted.reduce((sum, d) => sum + d.totalMs, 0);
  const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
  const lines = sorted.slice(0, shown).map((d) => {
    const share = all > 0 ? ((d.totalMs / all) * 100).toFixed(1).padStart(4) : "   0";
    const hooks = seconds(d.totalMs - d.testsMs);
    return `${seconds(d.totalMs)} s ${share} % (outside tests ${hooks} s)  ${d.file} [${d.project}]`;
  });
  return [
    `Slowest ${lines.length} of ${sorted.length} files, ${(all / 1000).toFixed(0)} s of worker time in all:`,
    ...lines,
  ].join("\n");
}

export default class DurationsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < 2) return;
    process.stdout.write(`\n${slowestFiles(modules.map(durationOf))}\n`);
  }
}
