// Local dates of the household's time zone: the API's `day` and `date` fields are local dates, its
// `at` fields UTC instants. The zone's rules are the bridge's too (src/time/zoned.ts); the calendar
// arithmetic only the simulator needs lives here.
import { type LocalDate, utcMidnightOf } from "../time/zoned.js";

export {
  addDays,
  assertTimeZone,
  formatWithOffset,
  type LocalDate,
  localDateOf,
  localDayEndMs,
  localDayStartMs,
  offsetMsAt,
} from "../time/zoned.js";

/** Days since 1970-01-01 of a calendar date (independent of any zone). */
export function dayNumber(date: LocalDate): number {
  return Math.round(utcMidnightOf(date) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(utcMidnightOf(date)).getUTCDay();
}
