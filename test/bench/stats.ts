/** Small statistics over plain number arrays; every function copes with an empty input (NaN). */

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** The nearest-rank percentile (p in 0..100): a value that was measured, never an interpolation. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

export function max(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

/** Index of the first element ≥ `value` in an ascending array (its length when there is none). */
export function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface Summary {
  n: number;
  mean: number;
  p95: number;
  max: number;
}

export function summarize(values: readonly number[]): Summary {
  return { n: values.length, mean: mean(values), p95: percentile(values, 95), max: max(values) };
}
