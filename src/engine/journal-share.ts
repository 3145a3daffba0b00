/**
 * How the journal's polls are shared among the children once the budget is short: evenly, unless
 * a child has clearly had more facts lately than the others. A child in the middle of its evening
 * routine brings a fact every few minutes while a child at school brings none; reading both at the
 * same pace leaves the busy child's facts waiting for a poll the quiet one did not need. For facts
 * arriving at steady rates, the intervals that keep their mean wait the shortest for a given
 * number of polls grow as one over the square root of each child's rate (the classic result for
 * refreshing sources that change at different rates). But a few facts more or less is chance, and
 * sharing by chance makes every child's polls uneven, which lengthens the longest waits (bench,
 * 2026-11-24: event delay p95 ×1.06–1.08 the best at 12–30 children alike, against ×1.03–1.04
 * evenly). So a child gets more than an even share only when its count stands out from the mean
 * beyond what chance gives (BUSY_BEYOND_DEVIATIONS standard deviations of a Poisson count).
 */

/** Half of a child's recent activity is forgotten in this time: an evening's routine, not the day. */
export const ACTIVITY_HALF_LIFE_MS = 30 * 60_000;

/**
 * How far above the children's mean a child's recent facts must be to count as busy, in standard
 * deviations of a Poisson count with that mean (at least 1). Among quiet children, at two, a child
 * counts as busy at its third recent fact; at three it took a fourth, often a poll later. Beside
 * another client on the token the bridge polls each of 10 children's journals only every two
 * minutes or so, and the facts of a burst wait for that poll: in a virtual-time replica of the
 * bench's side by side (10 children, a `rest` client taking 20 requests a minute, a fact every
 * 20 s for one child, 8 window phases), her facts' delay fell from 34.4 s to 27.3 s on average
 * (scratch, 2026-11-26); in the real side by side, 24 and 25 s against rest's 31 and 32 s in two
 * runs, where the last full bench at three had 34 s against 32. Children alike stand out by
 * chance more often at two, which makes the polls a little uneven; the request budget bench's
 * goals stayed met (24 virtual hours at 10 to 30 children: today fact age p95 ×1.04–1.08 the best,
 * event delay p95 ×1.03–1.04, against ×1.06–1.09 and ×1.01–1.04 at three).
 */
export const BUSY_BEYOND_DEVIATIONS = 2;

/**
 * A quiet child's journal is still read at least this often, as a multiple of the interval an even
 * share would give: its next fact waits for a poll three times as long at worst.
 */
export const QUIET_CHILD_SLOWEST = 3;

/** A child's recent facts, each counting less as it ages (half after ACTIVITY_HALF_LIFE_MS). */
export interface Activity {
  facts: number;
  /** When `facts` was last brought up to date (epoch ms). */
  at: number;
}

export function noActivity(now: number): Activity {
  return { facts: 0, at: now };
}

/** The activity as of `now`. */
export function activityAt(activity: Activity, now: number): number {
  const elapsed = Math.max(0, now - activity.at);
  return activity.facts * 2 ** (-elapsed / ACTIVITY_HALF_LIFE_MS);
}

/** `count` new facts at `now`. */
export function noteFacts(activity: Activity, count: number, now: number): Activity {
  return { facts: activityAt(activity, now) + count, at: now };
}

/**
 * Each child's journal stretch, given the even stretch (cadence.ts) and each child's recent facts:
 * together they send exactly as many polls as the even stretch would; no child is read faster than
 * its nominal interval (factor 1) nor slower than QUIET_CHILD_SLOWEST times the even pace. A busy
 * child's interval goes as one over the square root of its facts over the quiet children's mean
 * (at least one); the quiet ones share what is left evenly. When the journal is on cadence (even
 * stretch 1), or no child stands out, every child gets the even stretch.
 */
export function journalStretches(activities: readonly number[], evenStretch: number): number[] {
  const n = activities.length;
  const even = activities.map(() => Math.max(1, evenStretch));
  if (n < 2 || evenStretch <= 1) return even;
  const mean = activities.reduce((sum, facts) => sum + facts, 0) / n;
  const busyFrom = mean + BUSY_BEYOND_DEVIATIONS * Math.sqrt(Math.max(1, mean));
  const quiet = activities.filter((facts) => facts <= busyFrom);
  if (quiet.length === n) return even;
  // A busy child's rate against the quiet ones' (at least one fact): the mean of all would count
  // the busy child's own facts, and one child with all the facts would only ever weigh √n.
  const quietMean = Math.max(1, quiet.reduce((sum, facts) => sum + facts, 0) / Math.max(1, quiet.length));
  const weights = activities.map((facts) => (facts > busyFrom ? Math.sqrt(facts / quietMean) : 1));
  const slowest = QUIET_CHILD_SLOWEST * evenStretch;
  const stretchesFor = (scale: number) => weights.map((w) => Math.min(slowest, Math.max(1, scale / w)));
  const pollsFor = (scale: number) => stretchesFor(scale).reduce((sum, s) => sum + 1 / s, 0);
  // The polls fall as the scale grows: find the scale that sends n / evenStretch of them.
  const wanted = n / evenStretch;
  let low = 0;
  let high = slowest * Math.max(...weights);
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (pollsFor(mid) > wanted) low = mid;
    else high = mid;
  }
  return stretchesFor(high);
}
