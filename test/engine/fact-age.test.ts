import { describe, expect, it } from "vitest";
import { factAgeMs, factAgeSeconds } from "../../src/engine/fact-age.js";

// How late a fact is when it is handed over: what marks it replayed, and the `age_seconds` of the
// event Home Assistant gets. A fact's time comes from the API: one that cannot be read, or is
// ahead of the bridge's clock, must not make a negative or absurd age.

const NOW = Date.parse("2026-11-23T18:00:00.000Z");

describe("a fact's age", () => {
  it("counts from the fact's time to now, in milliseconds and in whole seconds", () => {
    expect(factAgeMs("2026-11-23T17:59:58.600Z", NOW)).toBe(1_400);
    expect(factAgeSeconds("2026-11-23T17:59:58.600Z", NOW)).toBe(1);
    expect(factAgeSeconds("2026-11-23T17:59:58.400Z", NOW)).toBe(2);
  });

  it("is 0 for a fact ahead of the clock, or whose time cannot be read", () => {
    expect(factAgeSeconds("2026-11-23T18:05:00.000Z", NOW)).toBe(0);
    expect(factAgeSeconds("soon", NOW)).toBe(0);
    expect(factAgeMs("", NOW)).toBe(0);
  });
});
