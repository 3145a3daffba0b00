import { RateBudget } from "../../../src/engine/rate-budget.js";
import { int } from "../format.js";
import { atMost, everyOne, type Goal } from "../goals/goal.js";
import type { RestartsMetrics } from "./measure.js";

/** What the bridge allows itself a minute: its own budget's default (the API's 30 less a margin). */
export const BRIDGE_BUDGET_PER_MINUTE = new RateBudget().perWindow;

/**
 * Five restarts in a minute: no 429, never more than the bridge's own budget in any 60 s, and still
 * every child read (a bridge that sent nothing would meet the first two).
 */
export function restartsGoals(m: RestartsMetrics): Goal[] {
  return [
    atMost("429s", m.rateLimited, 0, int, 0),
    atMost(
      "busiest 60 s at the simulator",
      m.busiestMinute,
      BRIDGE_BUDGET_PER_MINUTE,
      int,
      BRIDGE_BUDGET_PER_MINUTE,
    ),
    everyOne("children whose today was read", m.childrenRead, m.children),
  ];
}
