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
 * Every child gets the same share: when the children together ask for more than the budget,
 * every interval grows by the same factor, rather than some children starving or a 429.
 */
export function cadenceFor(children: number, options: CadenceOptions): Cadence {
  const perChild = 60_000 / options.eventsIntervalMs + 60_000 / options.todayIntervalMs;
  const demandPerMinute = children * perChild + 60_000 / options.discoveryIntervalMs;
  return { demandPerMinute, stretch: Math.max(1, demandPerMinute / options.budgetPerMinute) };
}

/** ±`fraction` of the interval, so that pollers of several children and bridges drift apart. */
export function jittered(intervalMs: number, fraction: number, random: () => number): number {
  return intervalMs * (1 + fraction * (2 * random() - 1));
}
