export interface SideBySideRun {
  /** Children followed by both clients: Léa, a child on a CalmDay, Inès (409), then ordinary ones. */
  children: number;
  windowMs: number;
}

export interface SideBySideParams {
  runs: SideBySideRun[];
  /** One fact (an ad-hoc validation: a point) for Léa this often on average during the window. */
  factEveryMs: number;
  /**
   * Each gap between two of her facts is drawn from factEveryMs × (1 ± this), seeded. At a fixed
   * 20 s every fact fell on one of three phases of rest's 60 s scan, so rest's staleness was 20 s
   * plus that phase (21–41 s in three runs): the goal "≤ rest's" judged the phase, not the bridge.
   * Irregular gaps give rest what its scan gives on average, about half of it (30 s).
   */
  factGapSpread: number;
  /** After the window, no new facts, so late deliveries still count (over one full poll of each). */
  drainMs: number;
  /** What the user's `rest` resources poll at (the brief: today every 60 s, events without a cursor). */
  restScanSeconds: number;
}

export function sideBySideParams(quick: boolean): SideBySideParams {
  return {
    runs: quick
      ? [
          { children: 3, windowMs: 2 * 60_000 },
          { children: 10, windowMs: 2 * 60_000 },
        ]
      : [
          { children: 3, windowMs: 8 * 60_000 },
          // 8 minutes: what the bridge needs to see that Léa is busy (her first poll in the window,
          // at the even pace of some 2 minutes) is a part of the window, not most of it.
          { children: 10, windowMs: 8 * 60_000 },
        ],
    factEveryMs: 20_000,
    factGapSpread: 0.5,
    drainMs: 90_000,
    restScanSeconds: 60,
  };
}
