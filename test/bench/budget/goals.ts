import { duration } from "../format.js";
import { type Goal, ratioText, withinOfBest } from "../goals/goal.js";
import { idealBudget } from "./ideal.js";
import type { BudgetResult } from "./params.js";

/** Fresh at saturation: the child counts where the budget is full, and how close to the best. */
export const SATURATED_CHILDREN: readonly number[] = [10, 12, 20, 30];
export const TODAY_AGE_TOLERANCE = 0.1;
export const EVENT_DELAY_TOLERANCE = 0.05;

/** Per saturated child count that ran: today fact age p95 and event delay p95 against the best. */
export function budgetGoals(results: readonly BudgetResult[]): Goal[] {
  return saturated(results).flatMap((r) => {
    const best = idealBudget(r.children);
    return [
      withinOfBest(
        `today fact age p95, ${r.children} children`,
        r.metrics.todayLag.p95,
        best.todayLagP95,
        TODAY_AGE_TOLERANCE,
        duration,
      ),
      withinOfBest(
        `event delay p95, ${r.children} children`,
        r.metrics.eventDelay.p95,
        best.eventDelayP95,
        EVENT_DELAY_TOLERANCE,
        duration,
      ),
    ];
  });
}

/** The verdict line under the table: the goal, then each saturated count's two ratios. */
export function budgetVerdict(results: readonly BudgetResult[]): string {
  const goals = budgetGoals(results);
  const counts = saturated(results).map((r) => r.children);
  const perCount = counts.map((n, i) => {
    const [today, events] = [goals[2 * i], goals[2 * i + 1]];
    const met = Boolean(today?.met && events?.met);
    const ratios = `today ${ratioText(today?.ratio ?? Number.NaN)}, events ${ratioText(events?.ratio ?? Number.NaN)}`;
    return `${n} children ${ratios}, ${met ? "met" : "not met"}`;
  });
  return (
    `Goal at ${SATURATED_CHILDREN.join(", ")} children: today fact age p95 within ` +
    `${TODAY_AGE_TOLERANCE * 100} % of the best, event delay p95 within ${EVENT_DELAY_TOLERANCE * 100} %. ` +
    (perCount.length > 0 ? `This run: ${perCount.join("; ")}.` : "This run measured none of these counts.")
  );
}

function saturated(results: readonly BudgetResult[]): BudgetResult[] {
  return [...results]
    .filter((r) => SATURATED_CHILDREN.includes(r.children))
    .sort((a, b) => a.children - b.children);
}
