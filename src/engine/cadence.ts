export interface CadenceOptions {
  eventsIntervalMs: number;
  todayIntervalMs: number;
  discoveryIntervalMs: number;
  budgetPerMinute: number;
}

export interface Cadence {
  /** Requests a minute that the nominal intervals ask for. */
  demandPerMinute: number;
  /** Factor applied to the journal's interval so the demand fits the budget (1 when it fits). */
  stretch: number;
  /** Factor applied to the today interval: it stretches first, then at the journal's pace. */
  todayStretch: number;
}

/**
 * The share of the budget the polls on cadence may ask for. The rest is for the requests no
 * cadence plans: today reads a new fact pulls forward, the next page after a full one, retries.
 * A cadence that fills the budget exactly leaves no room for them, so jobs queue, each one late
 * by up to an interval (bench, 10 children: event delay p95 ×1.3 the best).
 */
export const CADENCE_SHARE = 0.95;

/**
 * How far the routine today read stretches alone, when the budget is short, before the journal's
 * polls stretch too. A journal poll that brings a fact pulls its child's today read forward
 * (track.ts), and so does a session's end, so the routine read only catches what the journal does
 * not tell: a behavior declared or rejected, the rules changed. Giving its requests to the journal
 * keeps facts on time, in events and in today's sensors alike: at the suggested 30 s and 60 s,
 * ten children keep their journal on 30 s with today read every 90 s, where stretching both
 * alike made every fact ×1.13 later (bench, 2026-11-23).
 */
export const TODAY_STRETCHES_FIRST_UP_TO = 1.5;

/**
 * Every child gets the same share: when the children together ask for more than the budget, the
 * today interval of every child grows first, up to TODAY_STRETCHES_FIRST_UP_TO, then both of every
 * child's intervals grow by the same factor, rather than some children starving or a 429.
 */
export function cadenceFor(children: number, options: CadenceOptions): Cadence {
  const eventsPerChild = 60_000 / options.eventsIntervalMs;
  const todayPerChild = 60_000 / options.todayIntervalMs;
  const discovery = 60_000 / options.discoveryIntervalMs;
  const demandPerMinute = children * (eventsPerChild + todayPerChild) + discovery;
  const planned = options.budgetPerMinute * CADENCE_SHARE;
  if (demandPerMinute <= planned) return { demandPerMinute, stretch: 1, todayStretch: 1 };
  // The today reads alone give way: what the journal and the children's list leave them.
  const leftForToday = planned - children * eventsPerChild - discovery;
  const todayAlone = leftForToday > 0 ? (children * todayPerChild) / leftForToday : Infinity;
  if (todayAlone <= TODAY_STRETCHES_FIRST_UP_TO)
    return { demandPerMinute, stretch: 1, todayStretch: todayAlone };
  // Then both, the today read staying TODAY_STRETCHES_FIRST_UP_TO behind.
  const perChild = eventsPerChild + todayPerChild / TODAY_STRETCHES_FIRST_UP_TO;
  const stretch = (children * perChild) / Math.max(planned - discovery, Number.EPSILON);
  return { demandPerMinute, stretch, todayStretch: stretch * TODAY_STRETCHES_FIRST_UP_TO };
}

/** ±`fraction` of the interval, so that pollers of several children and bridges drift apart. */
export function jittered(intervalMs: number, fraction: number, random: () => number): number {
  return intervalMs * (1 + fraction * (2 * random() - 1));
}
