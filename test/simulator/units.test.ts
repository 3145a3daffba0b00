import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock, realClock, ScaledClock } from "../../src/simulator/clock.js";
import { hashParts, Rng, uuidFrom } from "../../src/simulator/random.js";
import { formatCursor, parseIsoInstant, parseSince } from "../../src/simulator/since.js";
import {
  addDays,
  formatWithOffset,
  localDateOf,
  localDayStartMs,
  offsetMsAt,
} from "../../src/simulator/zoned-time.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("clocks", () => {
  it("reads Date.now at every call, so fake timers move the real clock", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2026-01-15T09:00:00Z"));
    expect(realClock.now()).toBe(Date.parse("2026-01-15T09:00:00Z"));
    vi.advanceTimersByTime(90_000);
    expect(realClock.now()).toBe(Date.parse("2026-01-15T09:01:30Z"));
  });

  it("moves a manual clock only when told", () => {
    const clock = new ManualClock("2026-01-15T09:00:00Z");
    expect(clock.advance(1_500)).toBe(Date.parse("2026-01-15T09:00:01.500Z"));
    clock.set("2026-02-01T00:00:00+01:00");
    expect(clock.now()).toBe(Date.parse("2026-01-31T23:00:00Z"));
    expect(() => clock.set("yesterday")).toThrow(RangeError);
  });

  it("runs a scaled clock faster than its base from a start instant", () => {
    const base = new ManualClock(1_000_000);
    const clock = new ScaledClock({ speed: 60, start: "2026-01-15T07:00:00Z", base });
    expect(clock.now()).toBe(Date.parse("2026-01-15T07:00:00Z"));
    base.advance(60_000);
    expect(clock.now()).toBe(Date.parse("2026-01-15T08:00:00Z"));
    expect(() => new ScaledClock({ speed: 0 })).toThrow(RangeError);
  });
});

describe("seeded randomness", () => {
  it("repeats for the same parts and differs for others", () => {
    expect(hashParts(42, "child", "ordinary")).toBe(hashParts(42, "child", "ordinary"));
    expect(hashParts(42, "child", "ordinary")).not.toBe(hashParts(43, "child", "ordinary"));
    const a = Rng.of(1);
    const b = Rng.of(1);
    const draws = Array.from({ length: 5 }, () => a.int(0, 1_000));
    expect(Array.from({ length: 5 }, () => b.int(0, 1_000))).toEqual(draws);
    expect(uuidFrom(42, "x")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe("local dates in Europe/Paris", () => {
  const zone = "Europe/Paris";

  it("knows the offset in winter and in summer", () => {
    expect(offsetMsAt(Date.parse("2026-01-15T12:00:00Z"), zone)).toBe(3_600_000);
    expect(offsetMsAt(Date.parse("2026-07-15T12:00:00Z"), zone)).toBe(7_200_000);
  });

  it("starts days at local midnight, short and long days included", () => {
    expect(new Date(localDayStartMs("2026-01-15", zone)).toISOString()).toBe("2026-01-14T23:00:00.000Z");
    const spring = localDayStartMs("2026-03-29", zone);
    expect(localDayStartMs("2026-03-30", zone) - spring).toBe(23 * 3_600_000);
    const autumn = localDayStartMs("2026-10-25", zone);
    expect(localDayStartMs("2026-10-26", zone) - autumn).toBe(25 * 3_600_000);
  });

  it("names the local date of an instant", () => {
    expect(localDateOf(Date.parse("2026-01-15T22:59:59.999Z"), zone)).toBe("2026-01-15");
    expect(localDateOf(Date.parse("2026-01-15T23:00:00Z"), zone)).toBe("2026-01-16");
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("writes instants with the local offset", () => {
    expect(formatWithOffset(Date.parse("2026-01-15T09:30:00.250Z"), zone)).toBe(
      "2026-01-15T10:30:00.250+01:00",
    );
    expect(formatWithOffset(Date.parse("2026-01-15T09:30:00Z"), "America/New_York")).toBe(
      "2026-01-15T04:30:00.000-05:00",
    );
    expect(formatWithOffset(Date.parse("2026-01-15T09:30:00Z"), "UTC")).toBe("2026-01-15T09:30:00.000+00:00");
  });
});

describe("since", () => {
  it.each([
    ["2026-01-15T09:00:00Z", "2026-01-15T09:00:00.000Z"],
    ["2026-01-15T10:00:00+01:00", "2026-01-15T09:00:00.000Z"],
    ["2026-01-15T04:00-05:00", "2026-01-15T09:00:00.000Z"],
    ["2026-01-15T09:00:00.5Z", "2026-01-15T09:00:00.500Z"],
    ["2026-01-15T09:00:00.000001Z", "2026-01-15T09:00:00.001Z"],
    ["2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"],
  ])("reads %s as an instant", (text, iso) => {
    expect(parseIsoInstant(text)).toBe(Date.parse(iso));
  });

  it.each([
    "2026-01-15",
    "2026-01-15T09:00:00",
    "2026-01-15 09:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-01-15T09:60:00Z",
    "2026-01-15T09:00:00+0100",
    "20260115T090000Z",
    "1736931600000",
  ])("refuses %s", (text) => {
    expect(parseIsoInstant(text)).toBeUndefined();
  });

  it("reads cursors, timestamps and an absent since", () => {
    const cursor = formatCursor(Date.parse("2026-01-15T09:00:00Z"), "abc-1", "Europe/Paris");
    expect(cursor).toBe("2026-01-15T10:00:00.000+01:00,abc-1");
    expect(parseSince(cursor)).toEqual({
      kind: "cursor",
      recordedAt: Date.parse("2026-01-15T09:00:00Z"),
      id: "abc-1",
    });
    expect(parseSince("2026-01-15T09:00:00Z")).toEqual({
      kind: "instant",
      at: Date.parse("2026-01-15T09:00:00Z"),
    });
    expect(parseSince(null)).toEqual({ kind: "omitted" });
    expect(parseSince("")).toBeUndefined();
    expect(parseSince("2026-01-15T10:00:00.000 01:00,abc-1")).toBeUndefined();
    expect(parseSince("2026-01-15T10:00:00.000+01:00,abc,1")).toBeUndefined();
  });
});
