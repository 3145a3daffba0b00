import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError } from "../src/config/load-config.js";
import { SinkRefusedError } from "../src/engine/sink.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "../src/exit-codes.js";
import { exitWith, type RunVoice, runUntilStopped } from "../src/lifecycle.js";

// The one way the bridge and the demo run (src/lifecycle.ts): each way a run ends, its exit code,
// and what it tells, in order. What it runs here is a script of the app's lifecycle (started,
// stopped, failing), told to stop through `stopOn` rather than a signal to the test process;
// test/app and test/demo run both entries through real signals.

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A runnable whose start and stop end when the test says, and a log of what happened, in order. */
function scripted() {
  const told: string[] = [];
  let endStart!: (error?: unknown) => void;
  let endStop: (error?: unknown) => void = () => undefined;
  let fail!: (error: unknown) => void;
  const runnable = {
    start: () =>
      new Promise<void>((resolve, reject) => {
        told.push("start");
        endStart = (error) => (error ? reject(error) : resolve());
      }),
    stop: () =>
      new Promise<void>((resolve, reject) => {
        told.push("stop");
        endStop = (error) => (error ? reject(error) : resolve());
      }),
    failed: new Promise<never>((_, reject) => {
      fail = reject;
    }),
  };
  let askStop!: (reason: string) => void;
  const voice: RunVoice = {
    refused: (lines) => told.push(`refused: ${lines.join(" | ")}`),
    stopping: (reason) => told.push(`stopping: ${reason}`),
    failed: (error) => told.push(`failed: ${(error as Error).message}`),
    stopFailed: (error) => told.push(`stop failed: ${(error as Error).message}`),
    stopTooSlow: () => told.push("too slow"),
    stopped: (reason) => told.push(`stopped: ${reason}`),
  };
  const run = runUntilStopped(runnable, {
    signals: [],
    stopOn: (stop) => {
      askStop = stop;
    },
    voice,
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    told,
    run,
    settle,
    endStart: (error?: unknown) => endStart(error),
    endStop: (error?: unknown) => endStop(error),
    fail: (error: unknown) => fail(error),
    askStop: (reason: string) => askStop(reason),
  };
}

describe("a run", () => {
  it("stops when asked, and exits 0", async () => {
    const s = scripted();
    s.endStart();
    await s.settle();
    s.askStop("SIGTERM");
    await s.settle();
    s.endStop();
    expect(await s.run).toBe(EXIT_OK);
    expect(s.told).toEqual(["start", "stopping: SIGTERM", "stop", "stopped: SIGTERM"]);
  });

  it("stops when asked during its start, without waiting for the start, and a start failing then is moot", async () => {
    const s = scripted();
    s.askStop("SIGINT");
    await s.settle();
    expect(s.told).toEqual(["start", "stopping: SIGINT", "stop"]);
    // The stop ends the start (App.start gives up at its next step); its error is no failure.
    s.endStart(new Error("closed before Home Assistant could be reached"));
    s.endStop();
    expect(await s.run).toBe(EXIT_OK);
    expect(s.told).toEqual(["start", "stopping: SIGINT", "stop", "stopped: SIGINT"]);
  });

  it.each([
    [
      new ConfigError(["api_token: is required", "HA_URL: must be an http:// or https:// URL"]),
      "refused: api_token: is required | HA_URL: must be an http:// or https:// URL",
    ],
    [new SinkRefusedError("Home Assistant refused the token"), "refused: Home Assistant refused the token"],
  ])("refused at start (%s): stopped first, then each line told, exit 2", async (error, line) => {
    const s = scripted();
    s.endStart(error);
    await s.settle();
    s.endStop(new Error("nothing to stop"));
    expect(await s.run).toBe(EXIT_CONFIG);
    expect(s.told).toEqual(["start", "stop", line]);
  });

  it("rejects with what its start threw when nobody can act on it, once stopped", async () => {
    const s = scripted();
    const unexpected = new Error("disk on fire");
    s.endStart(unexpected);
    await s.settle();
    s.endStop();
    await expect(s.run).rejects.toBe(unexpected);
    expect(s.told).toEqual(["start", "stop"]);
  });

  it("failing on its own after start-up: told, stopped, exit 1", async () => {
    const s = scripted();
    s.endStart();
    await s.settle();
    s.fail(new Error("the sink broke"));
    await s.settle();
    s.endStop();
    expect(await s.run).toBe(EXIT_FAILURE);
    expect(s.told).toEqual(["start", "failed: the sink broke", "stop"]);
  });

  it("whose stop fails: told, and still exit 0 after a stop asked for", async () => {
    const s = scripted();
    s.endStart();
    await s.settle();
    s.askStop("SIGTERM");
    await s.settle();
    s.endStop(new Error("the store could not be flushed"));
    expect(await s.run).toBe(EXIT_OK);
    expect(s.told).toEqual([
      "start",
      "stopping: SIGTERM",
      "stop",
      "stop failed: the store could not be flushed",
      "stopped: SIGTERM",
    ]);
  });

  it("whose stop outlasts the Supervisor's patience: told, and ended without it, exit 0", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const s = scripted();
    s.endStart();
    await s.settle();
    s.askStop("SIGTERM");
    await s.settle();
    await vi.advanceTimersByTimeAsync(STOP_TIMEOUT_MS - 1);
    expect(s.told).toEqual(["start", "stopping: SIGTERM", "stop"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await s.run).toBe(EXIT_OK);
    expect(s.told).toEqual(["start", "stopping: SIGTERM", "stop", "too slow", "stopped: SIGTERM"]);
  });
});

describe("exitWith", () => {
  /** Hands `run` to exitWith; the exit code it asked for and what it wrote to standard error. */
  async function exitOf(run: Promise<number>): Promise<{ codes: unknown[]; stderr: string }> {
    const codes: unknown[] = [];
    let stderr = "";
    // Kept, not done: the exit would end the test worker.
    vi.spyOn(process, "exit").mockImplementation(((code?: number) => {
      codes.push(code);
    }) as typeof process.exit);
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    exitWith(run, "the bridge");
    await run.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    return { codes, stderr };
  }

  it("exits with the code the run resolves with, saying nothing", async () => {
    expect(await exitOf(Promise.resolve(EXIT_CONFIG))).toEqual({ codes: [EXIT_CONFIG], stderr: "" });
  });

  it("makes a run that rejects an unexpected failure: what failed and why on standard error, exit 1", async () => {
    expect(await exitOf(Promise.reject(new Error("disk on fire")))).toEqual({
      codes: [EXIT_FAILURE],
      stderr: "the bridge: disk on fire\n",
    });
    expect(await exitOf(Promise.reject("a bare string"))).toEqual({
      codes: [EXIT_FAILURE],
      stderr: "the bridge: a bare string\n",
    });
  });
});
