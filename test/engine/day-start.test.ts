import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { localDayStartIso } from "../../src/engine/day-start.js";
import { createLogger } from "../../src/log/logger.js";

const HOUR = 3_600_000;

/** The local date and wall time Intl gives for an instant in a zone, independent of the code under test. */
function wallOf(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).format(ms);
}

// [zone, an instant of the day, the day's first instant with the offset then in force]
const days: Array<[string, string, string, string]> = [
  ["Paris, a winter day", "Europe/Paris", "2026-01-15T10:00:00Z", "2026-01-15T00:00:00+01:00"],
  // 29 March 2026: 02:00 +01:00 → 03:00 +02:00, a 23-hour day.
  ["Paris, the spring change", "Europe/Paris", "2026-03-29T20:00:00Z", "2026-03-29T00:00:00+01:00"],
  // 25 October 2026: 03:00 +02:00 → 02:00 +01:00, a 25-hour day.
  ["Paris, the autumn change", "Europe/Paris", "2026-10-25T20:00:00Z", "2026-10-25T00:00:00+02:00"],
  ["Paris, the day after", "Europe/Paris", "2026-10-26T08:00:00Z", "2026-10-26T00:00:00+01:00"],
  // 8 March 2026: midnight is still -05:00, the afternoon -04:00.
  ["New York, the spring change", "America/New_York", "2026-03-08T20:00:00Z", "2026-03-08T00:00:00-05:00"],
  // Just before UTC midnight it is already the next day in Auckland (+13:00).
  ["Auckland, ahead of UTC", "Pacific/Auckland", "2026-11-21T23:30:00Z", "2026-11-22T00:00:00+13:00"],
  ["UTC", "UTC", "2026-11-21T23:30:00Z", "2026-11-21T00:00:00+00:00"],
  ["Kiritimati, +14:00", "Pacific/Kiritimati", "2026-11-21T09:59:59Z", "2026-11-21T00:00:00+14:00"],
  ["Niue, -11:00", "Pacific/Niue", "2026-11-22T10:59:59Z", "2026-11-21T00:00:00-11:00"],
  ["Kathmandu, +05:45", "Asia/Kathmandu", "2026-11-21T18:14:00Z", "2026-11-21T00:00:00+05:45"],
  // Santiago skips midnight on 6 September 2026 (00:00 -04:00 → 01:00 -03:00): the day starts at 01:00.
  ["Santiago, midnight skipped", "America/Santiago", "2026-09-06T15:00:00Z", "2026-09-06T01:00:00-03:00"],
  // Beirut's spring change is at midnight too (29 March 2026, 00:00 +02:00 → 01:00 +03:00).
  ["Beirut, midnight skipped", "Asia/Beirut", "2026-03-29T12:00:00Z", "2026-03-29T01:00:00+03:00"],
  // …and its autumn one (25 October 2026, 00:00 +03:00 → 23:00 +02:00 the day before): Saturday
  // lasts 25 hours, Sunday begins at its only midnight.
  ["Beirut, the Sunday after", "Asia/Beirut", "2026-10-24T22:30:00Z", "2026-10-25T00:00:00+02:00"],
  ["Beirut, the 25-hour Saturday", "Asia/Beirut", "2026-10-24T20:30:00Z", "2026-10-24T00:00:00+03:00"],
  // Amman, 29 October 2021: 01:00 +03:00 → 00:00 +02:00, midnight twice: the day began at the first.
  ["Amman, midnight twice", "Asia/Amman", "2021-10-29T12:00:00Z", "2021-10-29T00:00:00+03:00"],
  // Havana, 1 November 2026: 01:00 -04:00 → 00:00 -05:00, midnight twice as well.
  ["Havana, midnight twice", "America/Havana", "2026-11-01T12:00:00Z", "2026-11-01T00:00:00-04:00"],
];

// Some tests put the process in a zone of their choice: each starts from the one it was given.
const processTimeZone = process.env.TZ;
afterEach(() => {
  if (processTimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = processTimeZone;
});

/** A zone the process is in that is not `zone` (so the day's start is read through Intl). */
function elsewhere(zone: string): string {
  return zone === "Asia/Tokyo" ? "America/Denver" : "Asia/Tokyo";
}

describe("the day's start of the household's time zone", () => {
  it.each(days)("%s", (_, zone, instant, expected) => {
    // Another zone than the process's, through Intl…
    process.env.TZ = elsewhere(zone);
    expect(localDayStartIso(Date.parse(instant), zone)).toBe(expected);
    // …and the process's own (the add-on's, where TZ is Home Assistant's zone), through Date.
    process.env.TZ = zone;
    expect(localDayStartIso(Date.parse(instant), zone)).toBe(expected);
    // What Intl itself says of the answer: on that date, and the second before it on the day before.
    const start = Date.parse(expected);
    const date = expected.slice(0, 10);
    expect(wallOf(start, zone).slice(0, 10)).toBe(date);
    expect(wallOf(start - 1000, zone).slice(0, 10) < date).toBe(true);
    expect(start).toBeLessThanOrEqual(Date.parse(instant));
  });

  it.each([
    ["Europe/Paris", "2026-03-29T12:00:00Z", 23],
    ["Europe/Paris", "2026-10-25T12:00:00Z", 25],
    ["Asia/Beirut", "2026-03-29T12:00:00Z", 23],
    ["Asia/Beirut", "2026-10-24T12:00:00Z", 25],
    ["America/Santiago", "2026-09-06T12:00:00Z", 23],
    ["America/Santiago", "2026-04-04T12:00:00Z", 25],
    ["Australia/Lord_Howe", "2026-10-04T00:00:00Z", 23.5],
    ["Europe/Paris", "2026-11-21T12:00:00Z", 24],
  ])("%s, the day of %s lasts %d hours", (zone, instant, hours) => {
    process.env.TZ = elsewhere(zone);
    const start = Date.parse(localDayStartIso(Date.parse(instant), zone));
    const next = Date.parse(localDayStartIso(start + 30 * HOUR, zone));
    expect((next - start) / HOUR).toBe(hours);
  });

  it("reads the day in the process's own time zone when none is given, or one Intl does not know", () => {
    process.env.TZ = "Asia/Tokyo";
    const at = Date.parse("2026-11-21T20:00:00Z");
    expect(localDayStartIso(at)).toBe("2026-11-22T00:00:00+09:00");
    // A POSIX rule in TZ: Node's own clock does not follow it either.
    expect(localDayStartIso(at, "CET-1CEST,M3.5.0,M10.5.0/3")).toBe("2026-11-22T00:00:00+09:00");
  });

  it("leaves the process's time zone as it was", () => {
    process.env.TZ = "Europe/Paris";
    const winterNoon = Date.parse("2026-01-15T11:00:00Z");
    for (const zone of ["Asia/Tokyo", "America/Santiago", "Pacific/Kiritimati", "Etc/GMT+12"])
      localDayStartIso(Date.parse("2026-11-21T20:00:00Z"), zone);
    expect(process.env.TZ).toBe("Europe/Paris");
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe("Europe/Paris");
    expect(new Date(winterNoon).getHours()).toBe(12);
  });

  it("keeps the log's clock in one zone around a day's start read for another", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString("utf8"));
        callback();
      },
    });
    const logger = createLogger({ destination });
    // The log's clock at +14:00, the household's at -12:00: a day apart, whatever the date.
    process.env.TZ = "Pacific/Kiritimati";
    logger.info("before");
    localDayStartIso(Date.now(), "Etc/GMT+12");
    logger.info("after");
    const times = lines.map((line) => {
      const match = /^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\]/.exec(line);
      if (!match) throw new Error(`no time in ${JSON.stringify(line)}`);
      const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
      return Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s);
    });
    expect(times).toHaveLength(2);
    // The same wall clock, give or take the time between the lines: not a day apart.
    expect(Math.abs((times[1] ?? 0) - (times[0] ?? 0))).toBeLessThan(60_000);
  });
});
