import type { Today } from "../../api/schemas.js";

// The top of a child's minutes gauge: her unlocked minutes, so that a full arc is all she earned
// and the needle's fall reads as what she used. The gauge card's `max` is a number in the saved
// configuration (not a template), so the bridge writes the dashboard again when it changes. Pure.

/** A gauge's top before the child's day was read: 120 fits most days' allowances. */
export const DEFAULT_GAUGE_MAX = 120;

/**
 * The top for a day's minutes: the unlocked minutes, or the minutes left when more remain (a
 * needle past the top would say nothing); undefined when both are 0 (nothing unlocked yet: a
 * gauge from 0 to 0 cannot be drawn, and the last top serves until something is).
 */
export function gaugeTop(minutes: { unlocked: number; remaining: number }): number | undefined {
  const top = Math.max(minutes.unlocked, minutes.remaining);
  return top > 0 ? top : undefined;
}

/** The top for a day read from the API; undefined on the other home's day (the gauge is hidden then). */
export function gaugeTopOf(today: Today): number | undefined {
  if (!today.isMyDay) return undefined;
  return gaugeTop({ unlocked: today.minutesUnlocked, remaining: today.minutesRemaining });
}
