// The journal's starting point when no cursor is stored yet: the start of the current day in the
// household's time zone, as ISO 8601 with its UTC offset (the API takes it as `since`).
//
// Read through Date's own local time, in the process's time zone set to the household's, rather
// than through Intl.DateTimeFormat: a formatter with a time zone makes Node page in ICU's locale
// and calendar data (about 6 MiB of the node binary, 1.5 MiB of heap, measured on Node 20 and 24)
// and keeps it for the process's life, for a date read once per child. Date's local time reads
// only the zone's rules. Node applies a change of process.env.TZ at once (since Node 13).

/** Makes `timeZone` (an IANA name such as Europe/Paris) the process's local time zone. */
function useTimeZone(timeZone: string | undefined): void {
  if (timeZone && process.env.TZ !== timeZone) process.env.TZ = timeZone;
}

function twoDigits(n: number): string {
  return String(n).padStart(2, "0");
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${twoDigits(Math.floor(abs / 60))}:${twoDigits(abs % 60)}`;
}

/**
 * The instant the local day that holds `instant` began, as `YYYY-MM-DDThh:mm:00±hh:mm`: midnight,
 * or the first minute after it where a DST change skips midnight. In `timeZone`, or the process's
 * own time zone when none is given.
 */
export function startOfLocalDay(instant: number, timeZone?: string): string {
  useTimeZone(timeZone);
  const now = new Date(instant);
  // Date resolves a local time that a DST change skips to the first one after it.
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const date = `${start.getFullYear()}-${twoDigits(start.getMonth() + 1)}-${twoDigits(start.getDate())}`;
  const time = `${twoDigits(start.getHours())}:${twoDigits(start.getMinutes())}:00`;
  return `${date}T${time}${formatOffset(-start.getTimezoneOffset())}`;
}
