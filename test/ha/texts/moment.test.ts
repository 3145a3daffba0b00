import { afterEach, describe, expect, it } from "vitest";
import { formatMoment } from "../../../src/ha/texts/moment.js";

// An instant in a notification, as the family reads it: their language's formats, their
// household's zone. A zone or a language the runtime does not know must still give a moment
// (the runtime's own), never throw out of a notification.

const AT = Date.parse("2026-11-28T13:05:00Z");
const runtimeZone = process.env.TZ;

afterEach(() => {
  if (runtimeZone === undefined) delete process.env.TZ;
  else process.env.TZ = runtimeZone;
});

describe("a moment as the family reads it", () => {
  it("is in their language's formats and their household's zone", () => {
    expect(formatMoment(AT, "fr", "Europe/Paris")).toBe("28 novembre 2026 à 14:05");
    expect(formatMoment(AT, "en-GB", "Europe/London")).toBe("28 November 2026 at 13:05");
    expect(formatMoment(AT, "en-GB", "America/New_York")).toBe("28 November 2026 at 08:05");
  });

  it("is in the runtime's zone when Home Assistant gave none", () => {
    process.env.TZ = "Asia/Tokyo";
    expect(formatMoment(AT, "fr", undefined)).toBe("28 novembre 2026 à 22:05");
  });

  it("is the runtime's own when the zone or the language is unknown to it, rather than nothing", () => {
    process.env.TZ = "Asia/Tokyo";
    const runtimes = new Intl.DateTimeFormat(undefined, { dateStyle: "long", timeStyle: "short" }).format(AT);
    expect(runtimes).toMatch(/22:05|10:05/);
    expect(formatMoment(AT, "fr", "Mars/Olympus_Mons")).toBe(runtimes);
    expect(formatMoment(AT, "not a language!", "Europe/Paris")).toBe(runtimes);
  });
});
