import { addDays } from "../../time/zoned.js";

// A child's screen time per day for the dashboard's week, from day one: each day's figure from Home
// Assistant's statistics where it has one, else from the bridge's own readings of her day. Pure.

/** How many days the week shows: today and the 7 before (the chart's own span). */
export const WEEK_LENGTH = 8;

/** Statistics of at least this many days: the chart reads as days (one day draws on an hour axis). */
export const CHART_FROM_DAYS = 2;

/** The minutes used on each household date (`YYYY-MM-DD`). */
export type MinutesByDate = Readonly<Record<string, number>>;

export interface WeekDay {
  date: string;
  minutes: number;
  /** Where the figure comes from. */
  source: "statistics" | "bridge";
}

export interface Week {
  /** `chart` once statistics hold enough days for Home Assistant's chart; `filling` until then. */
  state: "chart" | "filling";
  /** Oldest first, today last; only the days with a figure. */
  days: WeekDay[];
}

/** A day's reading: the day's total only grows, so the highest reading is the day's figure so far. */
export function withReading(readings: MinutesByDate, date: string, minutes: number): MinutesByDate {
  const kept = Object.entries({ ...readings, [date]: Math.max(minutes, readings[date] ?? 0) })
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(-WEEK_LENGTH);
  return Object.fromEntries(kept);
}

export function weekOf(today: string, statistics: MinutesByDate, readings: MinutesByDate): Week {
  const dates = Array.from({ length: WEEK_LENGTH }, (_, i) => addDays(today, i - (WEEK_LENGTH - 1)));
  const days = dates.flatMap((date): WeekDay[] => {
    const fromStatistics = statistics[date];
    if (fromStatistics !== undefined)
      return [{ date, minutes: Math.round(fromStatistics), source: "statistics" }];
    const read = readings[date];
    return read === undefined ? [] : [{ date, minutes: read, source: "bridge" }];
  });
  const statisticsDays = dates.filter((date) => statistics[date] !== undefined).length;
  return { state: statisticsDays >= CHART_FROM_DAYS ? "chart" : "filling", days };
}
