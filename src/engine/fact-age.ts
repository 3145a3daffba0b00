/**
 * An instant of the API's on the bridge's clock. The same instant for a real API; the demo's
 * simulated household keeps a clock of its own, running faster (demo/household-clock.ts).
 */
export type BridgeTimeOf = (apiInstant: number) => number;

export const sameInstant: BridgeTimeOf = (apiInstant) => apiInstant;

/**
 * How late a fact is now: milliseconds from its `at`, read on the bridge's clock (0 when `at`
 * cannot be read, or is ahead).
 */
export function factAgeMs(at: string, now = Date.now(), bridgeTimeOf: BridgeTimeOf = sameInstant): number {
  const age = now - bridgeTimeOf(Date.parse(at));
  return Number.isFinite(age) ? Math.max(0, age) : 0;
}

/** The same in whole seconds, as `age_seconds` carries it. */
export function factAgeSeconds(at: string, now = Date.now()): number {
  return Math.round(factAgeMs(at, now) / 1000);
}
