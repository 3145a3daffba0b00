/** How late a fact is now: milliseconds from its `at` (0 when `at` cannot be read, or is ahead). */
export function factAgeMs(at: string, now = Date.now()): number {
  const age = now - Date.parse(at);
  return Number.isFinite(age) ? Math.max(0, age) : 0;
}

/** The same in whole seconds, as `age_seconds` carries it. */
export function factAgeSeconds(at: string, now = Date.now()): number {
  return Math.round(factAgeMs(at, now) / 1000);
}
