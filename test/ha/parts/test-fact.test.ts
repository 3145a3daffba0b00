import { describe, expect, it } from "vitest";
import { testFactData } from "../../../src/ha/parts/test-fact.js";

// A test fact's data, as automations read it (pure); fired by the button, in buttons.test.ts.

const lea = { id: "child-lea", firstName: "Léa", slug: "lea" };

describe("a test fact", () => {
  it("is a cheer of the child, marked test, with an id of its own and the household's day", () => {
    // 23:30 UTC is already the next day in Paris.
    const at = Date.parse("2026-11-28T23:30:00Z");
    expect(testFactData(lea, at, "Europe/Paris")).toEqual({
      type: "cheer_sent",
      test: true,
      derived: false,
      event_id: `test_child-lea_${at}`,
      child_id: "child-lea",
      at: "2026-11-28T23:30:00.000Z",
      day: "2026-11-29",
      child: "lea",
      child_name: "Léa",
      age_seconds: 0,
      replayed: false,
      redelivered: false,
      cheer: "bravo",
    });
    expect(testFactData(lea, at, "America/New_York").day).toBe("2026-11-28");
  });
});
