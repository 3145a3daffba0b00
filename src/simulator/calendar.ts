import { type LocalDate, weekdayOf } from "./zoned-time.js";

export type Period = "school" | "holiday" | "weekend";

// School holidays as month-day ranges that repeat every year (close to the French calendar):
// plausible periods for a demo, not an official calendar.
const holidays: readonly (readonly [from: string, to: string])[] = [
  ["02-14", "03-01"],
  ["04-11", "04-26"],
  ["07-04", "08-31"],
  ["10-18", "11-02"],
  ["12-20", "12-31"],
  ["01-01", "01-04"],
];

/** The effective period of a date: holidays win over weekends. */
export function periodOf(date: LocalDate): Period {
  const monthDay = date.slice(5);
  if (holidays.some(([from, to]) => monthDay >= from && monthDay <= to)) return "holiday";
  const weekday = weekdayOf(date);
  return weekday === 0 || weekday === 6 ? "weekend" : "school";
}
