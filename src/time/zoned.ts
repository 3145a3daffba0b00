// Local dates and times of a named time zone, computed with Intl (no time-zone library) and
// without touching the process's own zone: process.env.TZ is the log's clock too (pino-pretty
// prints local time), so setting it to the household's zone moved every later log line.
// Shared by the bridge (the day's start it reads the journal from) and the simulator.

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

const HOUR_MS = 3_600_000;
// No zone is further than this from UTC (Pacific/Kiritimati +14:00, Etc/GMT+12 -12:00), with
// room for a skipped hour: a local day's first instant lies within this of the date's UTC midnight.
const WIDEST_OFFSET_MS = 15 * HOUR_MS;

// One formatter per zone for the process's life: building one is the costly part.
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
  if (!isKnownTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
}

/** Whether Intl knows the zone (an IANA name such as Europe/Paris; not a POSIX TZ rule). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
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

/**
 * The first instant of a local date, in ms since the epoch: its midnight, the earlier one when the
 * clocks go back over midnight, or the first instant after it when a change skips midnight
 * (Santiago's and Beirut's spring: the day begins at 01:00).
 */
export function localDayStartMs(date: LocalDate, timeZone: string): number {
  const target = utcMidnightOf(date);
  // Midnight happens at the date's UTC midnight less the offset in force then, which is the
  // offset on one side of any change near it, or on the other.
  let first: number | undefined;
  for (const probe of [target - WIDEST_OFFSET_MS, target + WIDEST_OFFSET_MS]) {
    const midnight = target - offsetMsAt(probe, timeZone);
    if (first !== undefined && midnight >= first) continue;
    if (isMidnightOf(midnight, date, timeZone)) first = midnight;
  }
  return first ?? firstInstantOf(date, target, timeZone);
}

/** The instant at which the next local date begins, in ms since the epoch. */
export function localDayEndMs(date: LocalDate, timeZone: string): number {
  return localDayStartMs(addDays(date, 1), timeZone);
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(utcMidnightOf(date) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * ISO 8601 with the zone's offset: `2026-01-15T11:00:00.000+01:00`, or to the second
 * (`2026-01-15T11:00:00+01:00`) when `precision` says so.
 */
export function formatWithOffset(
  ms: number,
  timeZone: string,
  precision: "milliseconds" | "seconds" = "milliseconds",
): string {
  const offset = offsetMsAt(ms, timeZone);
  const local = new Date(ms + offset).toISOString().slice(0, precision === "seconds" ? 19 : 23);
  const sign = offset < 0 ? "-" : "+";
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${sign}${pad(Math.floor(minutes / 60), 2)}:${pad(minutes % 60, 2)}`;
}

/** Calendar arithmetic reads a date as its UTC midnight, which no zone's rules can move. */
export function utcMidnightOf(date: LocalDate): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError(`not a date: ${date}`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
}

function isMidnightOf(ms: number, date: LocalDate, timeZone: string): boolean {
  const w = wallClockAt(ms, timeZone);
  return (
    w.hour === 0 &&
    w.minute === 0 &&
    w.second === 0 &&
    `${pad(w.year, 4)}-${pad(w.month, 2)}-${pad(w.day, 2)}` === date
  );
}

/** Midnight skipped: the first second whose local date is `date`, found by halving. */
function firstInstantOf(date: LocalDate, target: number, timeZone: string): number {
  let before = target - WIDEST_OFFSET_MS;
  let from = target + WIDEST_OFFSET_MS;
  while (from - before > 1000) {
    const middle = before + Math.floor((from - before) / 2000) * 1000;
    if (localDateOf(middle, timeZone) < date) before = middle;
    else from = middle;
  }
  return from;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

function mod(value: number, by: number): number {
  return ((value % by) + by) % by;
}
