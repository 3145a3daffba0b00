export interface CostParams {
  /** Real time over which RSS and CPU are sampled. */
  windowMs: number;
  sampleMs: number;
  /** Start-ups measured (each a fresh process and data dir); the last one goes on into the window. */
  startupRuns: number;
  /** Facts added at once to one child, for the processing time per event. */
  burst: number;
  /** Extra cheers per hour and child during the window, on top of the ordinary day. */
  factsPerHour: number;
}

export function costParams(quick: boolean): CostParams {
  return quick
    ? { windowMs: 60_000, sampleMs: 1_000, startupRuns: 2, burst: 200, factsPerHour: 12 }
    : { windowMs: 10 * 60_000, sampleMs: 2_000, startupRuns: 5, burst: 1_000, factsPerHour: 12 };
}
