export interface CostParams {
  /** Real time over which RSS and CPU are sampled, per configuration. */
  windowMs: number;
  /**
   * From the first state to the window: the start's tail, which is not the steady state the lean
   * goals are about. In its first minute a bridge spends several times the CPU time of any later
   * minute (the first polls and publications of each kind compile their code, V8's memory reducer
   * collects, and what it flushed is compiled again), and its anonymous memory moves for a few
   * minutes more. Node 26 with the image's flags, 3 children over REST, CPU time
   * per minute from /proc (two scratch runs of 2026-11-27, 13 minutes each): 130 and 110 ms from
   * 10 to 70 s after the start, then 20–70 ms a minute, 0.06 % of a core, to the thirteenth. A
   * window opened 10 s after the first state measured 0.10–0.11 % (the benches of 2026-11-27).
   */
  settleMs: number;
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
        settleMs: 10_000,
        sampleMs: 1_000,
        startupRuns: 2,
        startupTimeoutMs: 60_000,
        burst: 200,
        factsPerHour: 12,
        idleMs: 5_000,
      }
    : {
        windowMs: 4 * 60_000,
        settleMs: 3 * 60_000,
        sampleMs: 2_000,
        startupRuns: 5,
        startupTimeoutMs: 60_000,
        burst: 1_000,
        factsPerHour: 12,
        idleMs: 20_000,
      };
}
