// The journal's starting point when no cursor is stored yet: the start of the current day in the
// household's time zone, as ISO 8601 with its UTC offset (the API takes it as `since`).
//
// Never by setting process.env.TZ to the household's zone: that is the log's clock too, and every
// log line after the first day's start moved to it (issue 41). When the household's zone is the
// process's own (the add-on's: the Supervisor gives it Home Assistant's zone as TZ), Date's local
// time reads it; otherwise Intl does (src/time/zoned.ts). Intl's first formatter with a time zone
// pages in ICU's locale data, measured on Node 20: about 1.7 MiB anonymous and 6.7 MiB of the node
// binary for the process's life, against under 1 MiB of the binary for Date's local time.
import { formatWithOffset, isKnownTimeZone, localDateOf, localDayStartMs } from "../time/zoned.js";

/**
 * The instant the local day that holds `instant` began, as `YYYY-MM-DDThh:mm:ss±hh:mm`: midnight,
 * the first of two when the clocks go back over it, or the first instant after it where a change
 * skips it. In `timeZone`, or the process's own time zone when none is given or Intl does not
 * know it (a POSIX rule in TZ, which Node's own clock does not follow either).
 */
export function localDayStartIso(instant: number, timeZone?: string): string {
  if (!timeZone || timeZone === process.env.TZ || !isKnownTimeZone(timeZone)) return inOwnZone(instant);
  return formatWithOffset(localDayStartMs(localDateOf(instant, timeZone), timeZone), timeZone, "seconds");
}

/** In the process's own zone, through Date's local time, which resolves a skipped or doubled midnight as above. */
function inOwnZone(instant: number): string {
  const now = new Date(instant);
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const date = `${start.getFullYear()}-${pad(start.getMonth() + 1)}-${pad(start.getDate())}`;
  const time = `${pad(start.getHours())}:${pad(start.getMinutes())}:${pad(start.getSeconds())}`;
  const offset = -start.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${date}T${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, "0");
}
