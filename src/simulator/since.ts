import { formatWithOffset } from "./zoned-time.js";

/** Where an events page starts. */
export type Since =
  | { kind: "omitted" }
  /** An ISO 8601 timestamp: events recorded at or after it. */
  | { kind: "instant"; at: number }
  /** A cursor: events strictly after (recordedAt, id). */
  | { kind: "cursor"; recordedAt: number; id: string };

// Date and time, seconds and fraction optional, and a zone that is required: a timestamp without
// one names no instant, so it is refused like any other malformed value.
const isoInstant =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** The instant an ISO 8601 timestamp with a zone names, in ms; undefined when it is not one. */
export function parseIsoInstant(text: string): number | undefined {
  const m = isoInstant.exec(text);
  if (!m) return undefined;
  const field = (index: number) => Number(m[index] ?? 0);
  const [year, month, day] = [field(1), field(2), field(3)];
  const [hour, minute, second] = [field(4), field(5), field(6)];
  const fraction = m[7] ?? "";
  const offsetHours = field(9);
  const offsetMinutes = field(10);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  // A fraction finer than the journal's milliseconds rounds up: "at or after" must not take in a
  // fact recorded just before the instant.
  const millis = Number(fraction.padEnd(3, "0").slice(0, 3)) + (/[1-9]/.test(fraction.slice(3)) ? 1 : 0);
  const sign = m[8] === "-" ? -1 : 1;
  const offset = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset;
}

/**
 * Reads the since parameter: absent, a cursor `recorded_at,id`, or a timestamp. Anything else,
 * the empty string included, is malformed (undefined).
 */
export function parseSince(raw: string | null): Since | undefined {
  if (raw === null) return { kind: "omitted" };
  const comma = raw.indexOf(",");
  if (comma < 0) {
    const at = parseIsoInstant(raw);
    return at === undefined ? undefined : { kind: "instant", at };
  }
  const recordedAt = parseIsoInstant(raw.slice(0, comma));
  const id = raw.slice(comma + 1);
  if (recordedAt === undefined || !/^[^\s,]+$/.test(id)) return undefined;
  return { kind: "cursor", recordedAt, id };
}

/**
 * The cursor of a fact. Its instant is written in the household's offset (`+01:00`), as a
 * database rendering a timestamptz would: a `+` and a comma that only survive a query string
 * URL-encoded, which is what the spec asks callers to do.
 */
export function formatCursor(recordedAt: number, id: string, timeZone: string): string {
  return `${formatWithOffset(recordedAt, timeZone)},${id}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
