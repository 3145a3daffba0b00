export interface CadenceOptions {
  eventsIntervalMs: number;
  todayIntervalMs: number;
  discoveryIntervalMs: number;
  budgetPerMinute: number;
}

export interface Cadence {
  /** Requests a minute that the nominal intervals ask for. */
  demandPerMinute: number;
  /** Factor applied to every interval so the demand fits the budget (1 when it already fits). */
  stretch: number;
}

/**
 * The share of the budget the polls on cadence may ask for. The rest is for the requests no
 * cadence plans: today reads a new fact pulls forward, the next page after a full one, retries.
 * A cadence that fills the budget exactly leaves no room for them, so jobs queue, each one late
 * by up to an interval (bench, 10 children: event delay p95 ×1.3 the best).
 */
export const CADENCE_SHARE = 0.95;

/**
 * Every child gets the same share: when the children together ask for more than the budget,
 * every interval grows by the same factor, rather than some children starving or a 429.
 */
export function cadenceFor(children: number, options: CadenceOptions): Cadence {
  const perChild = 60_000 / options.eventsIntervalMs + 60_000 / options.todayIntervalMs;
  const demandPerMinute = children * perChild + 60_000 / options.discoveryIntervalMs;
  const planned = options.budgetPerMinute * CADENCE_SHARE;
  return { demandPerMinute, stretch: Math.max(1, demandPerMinute / planned) };
}

/** ±`fraction` of the interval, so that pollers of several children and bridges drift apart. */
export function jittered(intervalMs: number, fraction: number, random: () => number): number {
  return intervalMs * (1 + fraction * (2 * random() - 1));
}
