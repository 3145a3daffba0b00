/**
 * The best the API's budget allows for n children: perfect scheduling at 30 requests a minute, the
 * spec's suggested intervals (events 30 s, today 60 s) as a floor, both stretched by the same factor
 * once 3 requests a minute per child no longer fit. Facts arrive at random instants, so the wait for
 * the next poll of an interval T is uniform on [0, T): mean T/2, p95 0.95·T.
 */
export interface IdealBudget {
  stretch: number;
  perMinute: number;
  eventsIntervalMs: number;
  todayIntervalMs: number;
  eventDelayMean: number;
  eventDelayP95: number;
  /**
   * A fact reaches today at the next today read, or at the next events poll when that comes first
   * (a today read follows at once the poll that saw it): the earlier of two uniform waits.
   */
  todayLagMean: number;
  todayLagP95: number;
  todayAgeMean: number;
  todayAgeP95: number;
}

export const API_LIMIT_PER_MINUTE = 30;
const EVENTS_MS = 30_000;
const TODAY_MS = 60_000;

export function idealBudget(children: number): IdealBudget {
  const demand = children * (60_000 / EVENTS_MS + 60_000 / TODAY_MS);
  const stretch = Math.max(1, demand / API_LIMIT_PER_MINUTE);
  const events = EVENTS_MS * stretch;
  const today = TODAY_MS * stretch;
  return {
    stretch,
    perMinute: Math.min(demand, API_LIMIT_PER_MINUTE),
    eventsIntervalMs: events,
    todayIntervalMs: today,
    eventDelayMean: events / 2,
    eventDelayP95: events * 0.95,
    todayLagMean: events / 2 - (events * events) / (6 * today),
    todayLagP95: earlierOfTwoP95(events, today),
    todayAgeMean: today / 2,
    todayAgeP95: today * 0.95,
  };
}

/**
 * The p95 of min(U[0, a], U[0, b]) for a ≤ b: P(min > x) = (1 − x/a)(1 − x/b) = 0.05, the root of
 * x² − (a + b)x + 0.95ab = 0 that lies in [0, a].
 */
function earlierOfTwoP95(a: number, b: number): number {
  return (a + b - Math.sqrt((a + b) ** 2 - 3.8 * a * b)) / 2;
}
