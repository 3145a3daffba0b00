import { statSync } from "node:fs";
import { mkdtemp, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_STALE_MS } from "../../src/health/heartbeat.js";

// The container's HEALTHCHECK, run in this process: the script exits as it loads, so each check is
// a fresh load with process.exit caught. heartbeat.test.ts runs it as Docker does, as a process
// of its own, beside a running bridge.

class Exited extends Error {
  constructor(readonly code: number | string | null | undefined) {
    super(`exited with ${code}`);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

/** Runs the check on `file`; its exit code and what it wrote to standard error. */
async function check(file: string): Promise<{ code: number | string | null | undefined; stderr: string }> {
  let stderr = "";
  vi.stubEnv("REWARD_FACTS_HEARTBEAT_FILE", file);
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Exited(code);
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  vi.resetModules();
  try {
    await import("../../src/health/check.js");
  } catch (error) {
    if (error instanceof Exited) return { code: error.code, stderr };
    throw error;
  }
  throw new Error("the check ended without an exit code");
}

/** A heartbeat written at a whole second, and the clock set `ageMs` after it. */
async function heartbeatAged(ageMs: number): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), "rf-check-")), "heartbeat");
  await writeFile(file, "2026-11-28T10:00:00.000Z\n");
  const written = new Date("2026-11-28T10:00:00Z");
  await utimes(file, written, written);
  vi.useFakeTimers({ toFake: ["Date"], now: statSync(file).mtimeMs + ageMs });
  return file;
}

describe("the container's health check", () => {
  it("is healthy (0) while the heartbeat is at most three minutes old, and says nothing", async () => {
    expect(await check(await heartbeatAged(HEARTBEAT_STALE_MS))).toEqual({ code: 0, stderr: "" });
  });

  it("is unhealthy (1) once the heartbeat is older, and says how old", async () => {
    expect(await check(await heartbeatAged(HEARTBEAT_STALE_MS + 1))).toEqual({
      code: 1,
      stderr: "heartbeat is 180 s old\n",
    });
  });

  it("is unhealthy (1) without a heartbeat, and says where it looked", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "rf-check-")), "never-written");
    expect(await check(file)).toEqual({ code: 1, stderr: `no heartbeat at ${file}\n` });
  });
});
