import { describe, expect, it } from "vitest";
import { changeByDate } from "../../../src/ha/link/statistics.js";

describe("a counter's daily rise from the recorder's statistics", () => {
  it("is keyed by the local date Home Assistant cut the day in, a row without a figure left out", () => {
    const parisMidnight = Date.parse("2026-11-27T23:00:00Z");
    expect(
      changeByDate(
        [
          { start: parisMidnight, change: 35 },
          { start: parisMidnight + 86_400_000, change: null },
          { start: parisMidnight + 2 * 86_400_000, change: 20.5 },
        ],
        "Europe/Paris",
      ),
    ).toEqual({ "2026-11-28": 35, "2026-11-30": 20.5 });
  });
});
