// The journal's starting point when no cursor is stored yet: the start of the current day in the
// household's time zone, as ISO 8601 with its UTC offset (the API takes it as `since`).

function offsetMinutes(instant: number, timeZone: string): number {
  const name = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(instant)
    .find((part) => part.type === "timeZoneName")?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? "");
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

/** The local calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function localDate(instant: number, timeZone: string): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(instant);
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** The instant local midnight began on the day that holds `instant`, as `YYYY-MM-DDT00:00:00±hh:mm`. */
export function startOfLocalDay(instant: number, timeZone: string): string {
  const date = localDate(instant, timeZone);
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const midnightAsUtc = Date.UTC(y, m - 1, d);
  // The offset at midnight can differ from the offset now (a DST change during the day): take the
  // offset of the instant that midnight would be, and check it once more.
  let offset = offsetMinutes(midnightAsUtc, timeZone);
  offset = offsetMinutes(midnightAsUtc - offset * 60_000, timeZone);
  return `${date}T00:00:00${formatOffset(offset)}`;
}

/** Whether a time zone name is known to this runtime. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
