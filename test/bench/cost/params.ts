export interface CostParams {
  /** Real time over which RSS and CPU are sampled, per configuration. */
  windowMs: number;
  sampleMs: number;
  /** Start-ups measured (each a fresh process and data dir); the last one goes on into the window. */
  startupRuns: number;
  /** A start that shows no state in Home Assistant by then has failed; its configuration stops there. */
  startupTimeoutMs: number;
  /** Facts added at once to one child, for the processing time per event. */
  burst: number;
  /** Extra cheers per hour and child during the window, on top of the ordinary day. */
  factsPerHour: number;
  /** How long an idle node (for scale) is sampled. */
  idleMs: number;
}

export function costParams(quick: boolean): CostParams {
  return quick
    ? {
        windowMs: 45_000,
        sampleMs: 1_000,
        startupRuns: 2,
        startupTimeoutMs: 60_000,
        burst: 200,
        factsPerHour: 12,
        idleMs: 5_000,
      }
    : {
        windowMs: 4 * 60_000,
        sampleMs: 2_000,
        startupRuns: 5,
        startupTimeoutMs: 60_000,
        burst: 1_000,
        factsPerHour: 12,
        idleMs: 20_000,
      };
}
