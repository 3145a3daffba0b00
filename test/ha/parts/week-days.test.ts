import { describe, expect, it } from "vitest";
import { weekOf, withReading } from "../../../src/ha/parts/week-days.js";

describe("a child's screen time per day, from day one", () => {
  it("on a fresh install: today from the bridge's reading, filling", () => {
    expect(weekOf("2026-11-29", {}, { "2026-11-29": 20 })).toEqual({
      state: "filling",
      days: [{ date: "2026-11-29", minutes: 20, source: "bridge" }],
    });
  });

  it("takes the statistics' figure where they have one, the bridge's reading else; a chart from two days of statistics", () => {
    const week = weekOf(
      "2026-11-29",
      { "2026-11-27": 44.6, "2026-11-28": 30 },
      { "2026-11-28": 25, "2026-11-29": 10, "2026-11-20": 99 },
    );
    expect(week).toEqual({
      state: "chart",
      days: [
        { date: "2026-11-27", minutes: 45, source: "statistics" },
        { date: "2026-11-28", minutes: 30, source: "statistics" },
        { date: "2026-11-29", minutes: 10, source: "bridge" },
      ],
    });
    expect(weekOf("2026-11-29", { "2026-11-28": 30 }, {}).state).toBe("filling");
  });

  it("keeps a day's highest reading, and the last 8 days only", () => {
    let readings = withReading({}, "2026-11-29", 20);
    readings = withReading(readings, "2026-11-29", 5);
    expect(readings).toEqual({ "2026-11-29": 20 });
    for (let day = 10; day <= 20; day++) readings = withReading(readings, `2026-12-${day}`, day);
    expect(Object.keys(readings)).toEqual(
      ["13", "14", "15", "16", "17", "18", "19", "20"].map((day) => `2026-12-${day}`),
    );
  });
});
