import { duration, mebibytes, percent } from "../format.js";
import { atMost, type Goal } from "../goals/goal.js";
import { percentile } from "../stats.js";
import type { IdleResult } from "./idle.js";
import type { ConfigResult } from "./run-config.js";
import { aboveIdle, usageOf } from "./usage.js";

/**
 * Lean: the goals of a bridge steady with 3 children, in REST mode. Memory is judged above an idle
 * node of the same runtime and flags: an idle Node 26 with the image's flags already holds some
 * 44 MiB, which no code of the bridge decides (the goals of 15 and 55 MiB in all sat at that floor
 * and flipped between runs), while what the bridge adds above it is stable from run to run.
 */
export const LEAN_GOALS = {
  anonAboveIdleBytes: 10 * 1_048_576,
  rssAboveIdleBytes: 18 * 1_048_576,
  firstStateMs: 500,
  cpuShare: 0.001,
} as const;

/**
 * The goals of each REST configuration users run (not the ones shown for comparison), on the
 * judged figures: the median start-up, the window's means. Beside each, an idle node on the same
 * runtime and flags: no process of that node can start sooner or use less. The memory goals
 * measure the bridge's increment above it; its own figure stands as the best, so the ratio is the
 * increment's share of what any node holds.
 */
export function leanGoals(configs: readonly ConfigResult[], idle: readonly IdleResult[]): Goal[] {
  return configs
    .filter((c) => c.config.mode === "rest" && !c.config.comparison)
    .flatMap((c) => {
      const usage = usageOf(c.window?.samples ?? []);
      const floor = idle.find((i) => i.runtime.label === c.config.runtime.label);
      const floorUsage = usageOf(floor?.samples ?? []);
      const increment = aboveIdle(usage, floorUsage);
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
            `anonymous RSS above an idle node, ${c.label}`,
            increment.anonBytes,
            LEAN_GOALS.anonAboveIdleBytes,
            mebibytes,
            floorUsage.anonMean,
          ),
        ),
        unmeasured(
          atMost(
            `total RSS above an idle node, ${c.label}`,
            increment.rssBytes,
            LEAN_GOALS.rssAboveIdleBytes,
            mebibytes,
            floorUsage.rssMean,
          ),
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
