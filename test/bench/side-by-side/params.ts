export interface SideBySideRun {
  /** Children followed by both clients: Léa, a child on a CalmDay, Inès (409), then ordinary ones. */
  children: number;
  windowMs: number;
}

export interface SideBySideParams {
  runs: SideBySideRun[];
  /** One fact (an ad-hoc validation: a point) for Léa this often during the window. */
  factEveryMs: number;
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
          { children: 10, windowMs: 4 * 60_000 },
        ],
    factEveryMs: 20_000,
    drainMs: 90_000,
    restScanSeconds: 60,
  };
}
