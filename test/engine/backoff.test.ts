import { describe, expect, it } from "vitest";
import { backoffMs, LISTING_BACKOFF, REFUSED_CHILD_BACKOFF } from "../../src/engine/backoff.js";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

describe("the waits between tries of what keeps failing", () => {
  it.each([
    ["a failed listing of the children", LISTING_BACKOFF, [5, 10, 20, 40, 60, 60, 60].map((s) => s * SECOND)],
    ["a child the API refuses (403)", REFUSED_CHILD_BACKOFF, [1, 2, 4, 5, 5].map((m) => m * MINUTE)],
  ])("%s: doubling from the first, then at most the longest", (_name, backoff, waits) => {
    expect(waits.map((_, i) => backoffMs(i + 1, backoff))).toEqual(waits);
    expect(backoffMs(1_000, backoff)).toBe(backoff.maxMs);
  });
});
