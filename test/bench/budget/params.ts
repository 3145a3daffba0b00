/** What a budget run is given (passed from the entry to the Vitest scenario as JSON). */
export interface BudgetParams {
  children: number[];
  hours: number;
  /** Extra cheers per hour and child, on top of each child's ordinary day. */
  factsPerHour: number;
  /** Virtual start: local midnight of a school day in the household's zone. */
  start: string;
}

export interface BudgetResult {
  children: number;
  hours: number;
  factsPerHour: number;
  /** The engine's own view at the end: its stretch factors (journal, today) and nominal demand. */
  stretch: number;
  todayStretch: number;
  demandPerMinute: number;
  metrics: import("./measure.js").BudgetMetrics;
  /** Real time the run took. */
  wallMs: number;
}

export function budgetParams(quick: boolean): BudgetParams {
  return {
    children: quick ? [1, 10, 30] : [1, 3, 9, 10, 12, 20, 30],
    hours: quick ? 2 : 24,
    factsPerHour: 4,
    // Monday 23 November 2026, 00:00 in Europe/Paris.
    start: "2026-11-22T23:00:00Z",
  };
}
