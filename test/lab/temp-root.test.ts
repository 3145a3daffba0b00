import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import setup, { machineTmpdir } from "./temp-root.js";

describe("the run's temporary folder", () => {
  it("holds this worker's temporary folders, under the machine's", () => {
    expect(basename(tmpdir())).toMatch(/^rf-test-run-/);
    expect(dirname(tmpdir())).toBe(machineTmpdir());
  });

  it("is removed with all it holds when the run ends, and TMPDIR is given back", async () => {
    const before = process.env.TMPDIR;
    const teardown = await setup();
    const root = tmpdir();
    expect(root).not.toBe(before);
    const inside = await mkdtemp(join(root, "rf-inside-"));
    await teardown();
    expect(existsSync(inside)).toBe(false);
    expect(existsSync(root)).toBe(false);
    expect(process.env.TMPDIR).toBe(before);
  });
});
