// Local dates of the household's time zone, computed with Intl (no time-zone library): the API's
// `day` and `date` fields are local dates, its `at` fields UTC instants.

/** A calendar date, YYYY-MM-DD. */
export type LocalDate = string;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Throws a RangeError naming the zone when Intl does not know it. */
export function assertTimeZone(timeZone: string): void {
  try {
    formatterFor(timeZone);
  } catch {
    throw new RangeError(`unknown time zone: ${timeZone}`);
  }
}

function wallClockAt(ms: number, timeZone: string): WallClock {
  const wall: WallClock = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(ms)) {
    if (part.type in wall) wall[part.type as keyof WallClock] = Number(part.value);
  }
  return wall;
}

/** Offset of the zone from UTC at an instant, in ms (Paris in winter: +3_600_000). */
export function offsetMsAt(ms: number, timeZone: string): number {
  const w = wallClockAt(ms, timeZone);
  const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wallAsUtc - (ms - mod(ms, 1000));
}

export function localDateOf(ms: number, timeZone: string): LocalDate {
  const w = wallClockAt(ms, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month, 2)}-${pad(w.day, 2)}`;
}

/** The first instant of a local date (midnight, or later when a time change skips midnight). */
export function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const target = utcMidnightOf(date);
  let guess = target - offsetMsAt(target, timeZone);
  guess = target - offsetMsAt(guess, timeZone);
  // A zone whose clocks jump over midnight starts the day at the first hour that exists.
  while (localDateOf(guess, timeZone) < date) guess += 3_600_000;
  return guess;
}

/** The instant at which the next local date begins. */
export function endOfLocalDay(date: LocalDate, timeZone: string): number {
  return startOfLocalDay(addDays(date, 1), timeZone);
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(utcMidnightOf(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Days since 1970-01-01 of a calendar date (independent of any zone). */
export function dayNumber(date: LocalDate): number {
  return Math.round(utcMidnightOf(date) / 86_400_000);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(utcMidnightOf(date)).getUTCDay();
}

/** ISO 8601 with the zone's offset, e.g. `2026-01-15T11:00:00.000+01:00`. */
export function formatWithOffset(ms: number, timeZone: string): string {
  const offset = offsetMsAt(ms, timeZone);
  const local = new Date(ms + offset).toISOString().slice(0, 23);
  const sign = offset < 0 ? "-" : "+";
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${sign}${pad(Math.floor(minutes / 60), 2)}:${pad(minutes % 60, 2)}`;
}

function utcMidnightOf(date: LocalDate): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

function mod(value: number, by: number): number {
  return ((value % by) + by) % by;
}
