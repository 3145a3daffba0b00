import { num } from "../format.js";

/**
 * One goal of the bench (issue 12), as the report shows it: what was measured beside the best
 * possible, their ratio where a best exists, the target and whether it was met. A figure that could
 * not be measured (NaN) never meets its goal: a missing measurement must not read as a pass.
 */
export interface Goal {
  /** What is measured, and in which run (`today fact age p95, 20 children`). */
  what: string;
  measured: string;
  /** The best possible (or the figure compared against), as text; "–" when there is none. */
  best: string;
  /** measured ÷ best, when both are numbers. */
  ratio: number;
  /** The target, as text (`≤ 1.10 × best`, `≤ 15 MiB`). */
  target: string;
  met: boolean;
}

/** measured ≤ (1 + tolerance) × best: `within 10 % of the best`. */
export function withinOfBest(
  what: string,
  measured: number,
  best: number,
  tolerance: number,
  show: (value: number) => string,
): Goal {
  const ratio = measured / best;
  return {
    what,
    measured: show(measured),
    best: show(best),
    ratio,
    target: `≤ ${num(1 + tolerance, 2)} × best`,
    met: Number.isFinite(ratio) && ratio <= 1 + tolerance,
  };
}

/** measured ≤ limit; a best, when there is one, is shown beside it with the ratio. */
export function atMost(
  what: string,
  measured: number,
  limit: number,
  show: (value: number) => string,
  best?: number,
): Goal {
  return {
    what,
    measured: show(measured),
    best: best === undefined ? "–" : show(best),
    ratio: best === undefined ? Number.NaN : measured / best,
    target: `≤ ${show(limit)}`,
    met: Number.isFinite(measured) && measured <= limit,
  };
}

/** Every one of `total` delivered: `12 / 12`. */
export function everyOne(what: string, delivered: number, total: number): Goal {
  return {
    what,
    measured: `${delivered} / ${total}`,
    best: `${total} / ${total}`,
    ratio: delivered / total,
    target: "all",
    met: total > 0 && delivered === total,
  };
}

/** The ratio as the tables print it: `×1.04`, or a dash. */
export function ratioText(ratio: number): string {
  return Number.isFinite(ratio) ? `×${num(ratio, 2)}` : "–";
}

export function verdictText(goal: Goal): string {
  return goal.met ? "met" : "not met";
}
