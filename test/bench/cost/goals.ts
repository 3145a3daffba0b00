import { duration, mebibytes, percent } from "../format.js";
import { atMost, type Goal } from "../goals/goal.js";
import { percentile } from "../stats.js";
import type { IdleResult } from "./idle.js";
import type { ConfigResult } from "./run-config.js";
import { usageOf } from "./usage.js";

/** Lean: the goals of a bridge steady with 3 children, in REST mode. */
export const LEAN_GOALS = {
  anonBytes: 15 * 1_048_576,
  rssBytes: 55 * 1_048_576,
  firstStateMs: 500,
  cpuShare: 0.001,
} as const;

/**
 * The goals of each REST configuration users run (not the ones shown for comparison), on the
 * judged figures: the median start-up, the window's means. The best beside each is an idle node on
 * the same runtime: no process of that node can start sooner or use less. (Memory's best used to be
 * that node with the bridge's packages imported; the bundle the bridge runs as now holds less than
 * the packages as installed, so that was no longer a floor: it stays in the cost table, for scale.)
 */
export function leanGoals(configs: readonly ConfigResult[], idle: readonly IdleResult[]): Goal[] {
  return configs
    .filter((c) => c.config.mode === "rest" && !c.config.comparison)
    .flatMap((c) => {
      const usage = usageOf(c.window?.samples ?? []);
      const floor = idle.find((i) => i.runtime.label === c.config.runtime.label);
      const floorUsage = usageOf(floor?.samples ?? []);
      const firstState = percentile(
        c.startups.map((s) => s.firstStateMs),
        50,
      );
      const never = (goal: Goal): Goal =>
        c.failure ? { ...goal, measured: "never published", ratio: Number.NaN, met: false } : goal;
      const unmeasured = (goal: Goal): Goal =>
        c.window ? goal : { ...goal, measured: "not measured", ratio: Number.NaN };
      return [
        never(
          atMost(
            `start to first state, ${c.label}`,
            firstState,
            LEAN_GOALS.firstStateMs,
            duration,
            percentile(floor?.bootMs ?? [], 50),
          ),
        ),
        unmeasured(
          atMost(
            `anonymous RSS, ${c.label}`,
            usage.anonMean,
            LEAN_GOALS.anonBytes,
            mebibytes,
            floorUsage.anonMean,
          ),
        ),
        unmeasured(
          atMost(`total RSS, ${c.label}`, usage.rssMean, LEAN_GOALS.rssBytes, mebibytes, floorUsage.rssMean),
        ),
        unmeasured(
          atMost(
            `CPU, ${c.label}`,
            usage.cpuShare,
            LEAN_GOALS.cpuShare,
            (v) => percent(v, 2),
            floorUsage.cpuShare,
          ),
        ),
      ];
    });
}
