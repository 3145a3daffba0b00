import { describe, expect, it } from "vitest";
import { derivedFactId, MAX_FACT_ID_LENGTH } from "../../src/engine/derived-facts.js";

const CHILD = "7f3c2a10-0000-4000-8000-000000000001";
const DAY = "2026-11-21";

describe("a derived fact's id", () => {
  it("names the child, the day, the kind and the subject", () => {
    expect(derivedFactId(CHILD, DAY, "behavior_declared", "homework")).toBe(
      `derived:${CHILD}:${DAY}:behavior_declared:homework`,
    );
  });

  it("fits Home Assistant's delivery record when the app's behavior id is long, the same fact keeping its id", () => {
    const long = "b".repeat(400);
    const id = derivedFactId(CHILD, DAY, "behavior_declared", long);
    expect(id.length).toBeLessThanOrEqual(MAX_FACT_ID_LENGTH);
    expect(id).toMatch(new RegExp(`^derived:${CHILD}:${DAY}:behavior_declared:#[0-9a-f]{32}$`));
    expect(derivedFactId(CHILD, DAY, "behavior_declared", long)).toBe(id);
    expect(derivedFactId(CHILD, DAY, "behavior_declared", `${long}x`)).not.toBe(id);
    expect(derivedFactId(CHILD, DAY, "behavior_rejected", long)).not.toBe(id);
  });

  it("is cut at the record's length exactly: 255 characters stay as they are, 256 are digested", () => {
    const prefix = `derived:${CHILD}:${DAY}:behavior_declared:`;
    const fits = "s".repeat(MAX_FACT_ID_LENGTH - prefix.length);
    expect(derivedFactId(CHILD, DAY, "behavior_declared", fits)).toBe(prefix + fits);
    expect(derivedFactId(CHILD, DAY, "behavior_declared", `${fits}s`)).toMatch(/:#[0-9a-f]{32}$/);
  });

  it("is digested whole when even the child's id is too long", () => {
    const id = derivedFactId("c".repeat(300), DAY, "day_started", DAY);
    expect(id).toMatch(/^derived:#[0-9a-f]{32}$/);
  });
});
