import { describe, expect, it } from "vitest";
import { type FileDuration, slowestFiles } from "./durations-reporter.js";

const file = (path: string, totalMs: number, testsMs = totalMs, project = "fast"): FileDuration => ({
  project,
  file: path,
  totalMs,
  testsMs,
});

describe("the slowest files of a run", () => {
  it("are listed longest first, with their share of the worker time and what went outside tests", () => {
    const text = slowestFiles(
      [
        file("test/a.test.ts", 1_000),
        file("test/b.test.ts", 6_000, 2_000, "HA 2026.11.0"),
        file("test/c.test.ts", 3_000),
      ],
      2,
    );
    expect(text.split("\n")).toEqual([
      "Slowest 2 of 3 files, 10 s of worker time in all:",
      "   6.0 s 60.0 % (outside tests    4.0 s)  test/b.test.ts [HA 2026.11.0]",
      "   3.0 s 30.0 % (outside tests    0.0 s)  test/c.test.ts [fast]",
    ]);
  });

  it("names every file when there are fewer than asked", () => {
    expect(slowestFiles([file("test/a.test.ts", 500)]).split("\n")).toHaveLength(2);
  });
});
