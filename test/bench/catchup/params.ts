/** What the catch-up run is given (passed from the entry to the Vitest scenario as JSON). */
export interface CatchupParams {
  facts: number;
  children: number;
  /** Virtual start: the bridge starts late in the day, the backlog lies between midnight and then. */
  start: string;
}

export interface CatchupResult {
  facts: number;
  perChild: number[];
  /** Virtual ms from the engine's start to the last fact handed to the sink; NaN if never. */
  drainMs: number;
  delivered: number;
  duplicates: number;
  inOrder: boolean;
  requests: { total: number; events: number; today: number; children: number; rateLimited: number };
  perMinuteMax: number;
  wallMs: number;
}

export function catchupParams(): CatchupParams {
  // 20:00 in Europe/Paris: the backlog fills the day from midnight.
  return { facts: 10_000, children: 3, start: "2026-11-23T19:00:00Z" };
}
