/** How figures read in the tables: one way for each kind of quantity, everywhere. */

const dash = "–";

/** Milliseconds as seconds (`12.3 s`), or minutes past 10 minutes (`14.2 min`). */
export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return dash;
  if (Math.abs(ms) >= 600_000) return `${(ms / 60_000).toFixed(1)} min`;
  if (Math.abs(ms) >= 10_000) return `${(ms / 1000).toFixed(0)} s`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Milliseconds, for short real-time spans (`0.42 ms`, `37 ms`). */
export function millis(ms: number): string {
  if (!Number.isFinite(ms)) return dash;
  if (Math.abs(ms) < 10) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(0)} ms`;
}

export function num(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : dash;
}

export function int(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value)) : dash;
}

export function mebibytes(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1_048_576).toFixed(1)} MiB` : dash;
}

export function percent(fraction: number, digits = 1): string {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)} %` : dash;
}

/** A measured value beside the best the budget allows: `15.2 s (15.0)`. */
export function vsBest(measured: string, best: string): string {
  return `${measured} (${best})`;
}
