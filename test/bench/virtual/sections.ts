import { type BudgetResult, budgetParams } from "../budget/params.js";
import { budgetSection } from "../budget/section.js";
import { type CatchupResult, catchupParams } from "../catchup/params.js";
import { catchupSection } from "../catchup/section.js";
import type { Section } from "../report/section.js";
import { runVirtualScenarios } from "./run-virtual.js";

/** The budget and catch-up sections, both run in one Vitest process (in parallel workers). */
export async function virtualSections(wanted: { budget: boolean; catchup: boolean; quick: boolean }) {
  const params: Record<string, unknown> = {};
  const budget = budgetParams(wanted.quick);
  const catchup = catchupParams();
  if (wanted.budget) params.budget = budget;
  if (wanted.catchup) params.catchup = catchup;
  const sections: Section[] = [];
  if (Object.keys(params).length === 0) return sections;
  const results = await runVirtualScenarios({ params });
  if (wanted.budget) {
    const rows = budget.children.map((n) => results.get(`budget-${n}`) as BudgetResult | undefined);
    const missing = budget.children.filter((_, i) => !rows[i]);
    if (missing.length > 0) throw new Error(`no budget result for ${missing.join(", ")} children`);
    sections.push(budgetSection(budget, rows as BudgetResult[]));
  }
  if (wanted.catchup) {
    const result = results.get("catchup") as CatchupResult | undefined;
    if (!result) throw new Error("no catch-up result");
    sections.push(catchupSection(catchup, result));
  }
  return sections;
}
