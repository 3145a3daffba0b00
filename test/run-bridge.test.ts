import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { EngineStatus } from "../src/engine/sink.js";
import { SinkRefusedError } from "../src/engine/sink.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "../src/exit-codes.js";
import { runBridge } from "../src/run-bridge.js";
import { ApiSimulator } from "../src/simulator/index.js";
import { STORE_FILE_NAME } from "../src/store/index.js";
import { RecordingSink } from "./support/recording-sink.js";
import { waitFor } from "./support/wait-for.js";

// The bridge's run from its environment to the exit code main.ts exits with, in this process
// (test/app runs the same through main.ts in a child, which coverage cannot see): a refused
// configuration, a run stopped by SIGTERM, a failure of its own, the removal step instead. The
// signal is emitted on this process rather than sent to it: its listeners run as they would for a
// real one, and a missed listener cannot kill the test worker.

const HA_TOKEN = "ha-token-that-must-never-show-0123456789";

let sim: ApiSimulator;
// Each run's logger pipes into standard output, as the one logger of a bridge's process does: a
// dozen runs in one process are a dozen pipes, not a leak.
const stdoutListeners = process.stdout.getMaxListeners();
beforeAll(async () => {
  process.stdout.setMaxListeners(stdoutListeners + 20);
  // A bridge a test, each with a budget of its own on the one token: the API's 30 a minute would
  // answer the later ones 429, which no test here is about.
  sim = await ApiSimulator.start({ activity: false, rateLimitPerMinute: 6_000 });
});
afterAll(async () => {
  await sim?.stop();
  process.stdout.setMaxListeners(stdoutListeners);
});

/** What the run writes to standard output (its log) and standard error, kept off the terminal. */
function captureOutput(): { out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  return { out: () => out.join(""), err: () => err.join("") };
}

// The run's stop listeners stay for the process's life (lifecycle.ts); a test takes its own away.
const signals = ["SIGTERM", "SIGINT"] as const;
const listenersBefore = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
afterEach(() => {
  vi.restoreAllMocks();
  for (const signal of signals)
    for (const listener of process.listeners(signal))
      if (!listenersBefore.get(signal)?.includes(listener)) process.off(signal, listener);
});

/** The environment of a standalone bridge on the simulator, in a data directory of its own. */
async function bridgeEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), "rf-run-bridge-"));
  return {
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    REWARD_FACTS_DATA_DIR: join(dir, "data"),
    REWARD_FACTS_HEARTBEAT_FILE: join(dir, "heartbeat"),
    ...extra,
  };
}

/** A port nothing listens on: a Home Assistant that is not up. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("runBridge", () => {
  it("refuses a bad configuration before anything starts: one line per problem, exit 2", async () => {
    const output = captureOutput();
    const env = await bridgeEnv({ REWARD_FACTS_API_TOKEN: "", HA_URL: "homeassistant.local:8123" });
    const served = sim.requests.length;

    expect(await runBridge(env)).toBe(EXIT_CONFIG);
    expect(output.err().split("\n")).toEqual(
      expect.arrayContaining([
        "REWARD_FACTS_API_TOKEN: is required",
        "HA_TOKEN: required when HA_URL is set (a long-lived token of an admin user)",
      ]),
    );
    expect(existsSync(env.REWARD_FACTS_DATA_DIR as string)).toBe(false);
    expect(sim.requests.length).toBe(served);
  });

  it("without Home Assistant, writes the facts to its log until SIGTERM, then exits 0 with its store flushed", async () => {
    const output = captureOutput();
    const env = await bridgeEnv();
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "super" });
    const run = runBridge(env);

    await waitFor(() => output.out().includes(`cheer: super (${fact.at}`), { timeoutMs: 20_000 });
    process.emit("SIGTERM", "SIGTERM");

    expect(await run).toBe(EXIT_OK);
    const log = output.out();
    expect(log).toContain(
      "no Home Assistant configured (HA_URL, HA_TOKEN): facts are only written to this log",
    );
    expect(log).toContain("polling the Reward Facts API");
    expect(log).toMatch(/INFO: stopping.*SIGTERM/);
    expect(log).not.toContain(sim.tokens.household);
    const stored = JSON.parse(
      await readFile(join(env.REWARD_FACTS_DATA_DIR as string, STORE_FILE_NAME), "utf8"),
    );
    expect(JSON.stringify(stored)).toContain(fact.id);
  });

  it("hands the facts to the sink it is given, and tells it the bridge stopped", async () => {
    captureOutput();
    const sink = new RecordingSink();
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "seen" });
    const run = runBridge(await bridgeEnv(), { sink });

    await waitFor(() => sink.eventIdsOf(sim.children.ordinary.id).includes(fact.id), { timeoutMs: 20_000 });
    process.emit("SIGINT", "SIGINT");

    expect(await run).toBe(EXIT_OK);
    expect(sink.lastStatus()?.state).toBe("stopped");
    expect(sink.unavailable.map((u) => u.reason)).toContain("bridge_stopped");
  });

  it("holds each delivery at the test pause's moment, and says so with the fact (what a kill test waits for)", async () => {
    const output = captureOutput();
    const sink = new RecordingSink();
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "bravo" });
    const run = runBridge(await bridgeEnv({ REWARD_FACTS_TEST_PAUSE: "before_ack:1" }), { sink });
    await waitFor(() => sink.eventIdsOf(sim.children.ordinary.id).includes(fact.id), { timeoutMs: 20_000 });
    process.emit("SIGTERM", "SIGTERM");

    expect(await run).toBe(EXIT_OK);
    const paused = output
      .out()
      .split("\n")
      .filter((line) => line.includes("test pause in a delivery"));
    expect(paused.some((line) => line.includes(fact.id) && line.includes("before_ack"))).toBe(true);
    expect(output.out()).not.toMatch(/after_claim/);
  });

  it("polls at the tests' pace when they set it, an unchanged status published again too (the lab's suites stand on it)", async () => {
    captureOutput();
    // A simulator that allows the pace, and a budget told so.
    const fast = await ApiSimulator.start({ activity: false, rateLimitPerMinute: 600 });
    try {
      const sink = new RecordingSink();
      const child = fast.children.ordinary;
      const reads = (what: string) =>
        fast.requests.filter((r) => r.path.startsWith(`/children/${child.id}/${what}`));
      const env = await bridgeEnv({
        REWARD_FACTS_API_TOKEN: fast.tokens.household,
        REWARD_FACTS_API_BASE_URL: fast.url,
        REWARD_FACTS_CHILDREN: child.firstName,
        REWARD_FACTS_TEST_INTERVALS_MS: "200,300,400",
        REWARD_FACTS_TEST_API_LIMIT: "600",
      });
      const run = runBridge(env, { sink });
      // At the options' shortest (10 s and 15 s) this would take half a minute and more.
      await waitFor(() => reads("events").length >= 3 && reads("today").length >= 3, { timeoutMs: 20_000 });
      await waitFor(() => sink.statuses.filter((status) => status.state === "ok").length >= 3, {
        timeoutMs: 20_000,
      });
      process.emit("SIGTERM", "SIGTERM");
      expect(await run).toBe(EXIT_OK);
    } finally {
      await fast.stop();
    }
  });

  it("refused by its sink at start (a token it will not take): the reason logged as an error, exit 2", async () => {
    const output = captureOutput();
    class RefusingSink extends RecordingSink {
      override async open(): Promise<void> {
        throw new SinkRefusedError("Home Assistant refused the token (test)");
      }
    }

    expect(await runBridge(await bridgeEnv(), { sink: new RefusingSink() })).toBe(EXIT_CONFIG);
    await waitFor(() => output.out().includes("ERROR: Home Assistant refused the token (test)"));
  });

  it("failing on its own in the main loop: one fatal line with the reason, exit 1", async () => {
    const output = captureOutput();
    class BreakingSink extends RecordingSink {
      override async publishStatus(status: EngineStatus): Promise<void> {
        if (status.state === "ok") throw new Error("the sink broke (test fault)");
        await super.publishStatus(status);
      }
    }

    expect(await runBridge(await bridgeEnv(), { sink: new BreakingSink() })).toBe(EXIT_FAILURE);
    await waitFor(() =>
      output.out().includes("FATAL: the bridge failed and stops: the sink broke (test fault)"),
    );
    expect(output.out().match(/the bridge failed and stops/g)).toHaveLength(1);
  });

  it("whose sink fails to close: logged, and still exit 0 after SIGTERM", async () => {
    const output = captureOutput();
    class StuckSink extends RecordingSink {
      override async close(): Promise<void> {
        throw new Error("the publisher would not close (test fault)");
      }
    }
    const sink = new StuckSink();
    const run = runBridge(await bridgeEnv(), { sink });
    await waitFor(() => sink.lastStatus()?.state === "ok", { timeoutMs: 20_000 });
    process.emit("SIGTERM", "SIGTERM");

    expect(await run).toBe(EXIT_OK);
    await waitFor(() => output.out().includes("stopping: the publisher failed"));
  });
  it("whose stop outlasts the Supervisor's patience: says so, and exits 0 without waiting more", async () => {
    const output = captureOutput();
    let release: () => void = () => undefined;
    class HangingSink extends RecordingSink {
      override close(): Promise<void> {
        return new Promise((resolve) => {
          release = resolve;
        });
      }
    }
    const sink = new HangingSink();
    const run = runBridge(await bridgeEnv(), { sink });
    await waitFor(() => sink.lastStatus()?.state === "ok", { timeoutMs: 20_000 });
    // The Supervisor's five seconds on the fake clock; the bridge's I/O stays real.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      process.emit("SIGTERM", "SIGTERM");
      // Said just before the stop and its timer begin.
      await waitFor(() => /INFO: stopping/.test(output.out()));
      await vi.advanceTimersByTimeAsync(STOP_TIMEOUT_MS);
      expect(await run).toBe(EXIT_OK);
    } finally {
      vi.useRealTimers();
      release();
    }
    await waitFor(() => output.out().includes("WARN: stop took too long; exiting anyway"));
  });

  it("rejects with what an unexpected start failure threw, for main to report, once stopped", async () => {
    captureOutput();
    class BrokenSink extends RecordingSink {
      closed = false;
      override async open(): Promise<void> {
        throw new Error("disk on fire (test fault)");
      }
      override async close(): Promise<void> {
        this.closed = true;
      }
    }
    const sink = new BrokenSink();

    await expect(runBridge(await bridgeEnv(), { sink })).rejects.toThrow("disk on fire (test fault)");
    expect(sink.closed).toBe(true);
  });

  it("waits for a data directory it cannot use, reading nothing, and goes on once it can", async () => {
    const output = captureOutput();
    // A data directory under a file: no one, root included, can make it.
    const env = await bridgeEnv();
    const file = join(dirname(env.REWARD_FACTS_DATA_DIR as string), "a-file");
    await writeFile(file, "not a directory\n");
    const served = sim.requests.length;
    const run = runBridge({ ...env, REWARD_FACTS_DATA_DIR: join(file, "data") });
    await waitFor(() => output.out().includes("cannot use the data directory"));
    expect(output.out()).toContain(
      "nothing is read from the API until it can be written. Retrying every 5 s.",
    );
    expect(sim.requests.length).toBe(served);

    await rm(file);
    // The next try, five seconds on.
    await waitFor(() => output.out().includes("the data directory works now"), { timeoutMs: 20_000 });
    await waitFor(() => output.out().includes("polling the Reward Facts API"));
    process.emit("SIGTERM", "SIGTERM");
    expect(await run).toBe(EXIT_OK);
    expect(existsSync(join(file, "data", STORE_FILE_NAME))).toBe(true);
  });

  it("waits for a Home Assistant that is not up yet, reading nothing, and a SIGTERM ends the wait: exit 0", async () => {
    const output = captureOutput();
    const served = sim.requests.length;
    const broker = await closedPort();
    const env = await bridgeEnv({
      HA_URL: `http://127.0.0.1:${await closedPort()}`,
      HA_TOKEN,
      MQTT_URL: `mqtt://127.0.0.1:${broker}`,
    });
    const run = runBridge(env);
    await waitFor(() => output.out().includes("publishing entities through MQTT discovery"));
    process.emit("SIGTERM", "SIGTERM");

    expect(await run).toBe(EXIT_OK);
    expect(output.out()).toContain(`127.0.0.1:${broker}`);
    expect(output.out()).not.toContain("polling the Reward Facts API");
    expect(output.out()).not.toContain(HA_TOKEN);
    // The same bridge across restarts: its id is kept before the lease is asked for.
    const stored = await readFile(join(env.REWARD_FACTS_DATA_DIR as string, STORE_FILE_NAME), "utf8");
    expect(stored).toMatch(/"instance_id"/);
    expect(sim.requests.length).toBe(served);
  });
});

describe("runBridge, asked for the removal step", () => {
  it("without Home Assistant: says what it needs, exit 2, and reads nothing from the API", async () => {
    const output = captureOutput();
    const served = sim.requests.length;

    expect(await runBridge(await bridgeEnv({ REWARD_FACTS_REMOVE: "true" }))).toBe(EXIT_CONFIG);
    await waitFor(() => output.out().includes("REWARD_FACTS_REMOVE: needs HA_URL and HA_TOKEN"));
    expect(sim.requests.length).toBe(served);
  });

  it("stopped by SIGTERM while Home Assistant cannot be reached: exit 1, said so, the token never shown", async () => {
    const output = captureOutput();
    const served = sim.requests.length;
    const env = await bridgeEnv({ HA_URL: `http://127.0.0.1:${await closedPort()}`, HA_TOKEN });
    const run = runBridge(env, { remove: true });
    await waitFor(() => output.out().includes("removing everything the bridge made from Home Assistant"));
    process.emit("SIGTERM", "SIGTERM");

    expect(await run).toBe(EXIT_FAILURE);
    await waitFor(() => output.out().includes("the removal failed: stopped before it was done"));
    expect(output.out()).not.toContain(HA_TOKEN);
    expect(sim.requests.length).toBe(served);
    // Its own listeners go with it: a later signal is no business of a finished removal.
    expect(process.listeners("SIGTERM")).toEqual(listenersBefore.get("SIGTERM"));
  });
});
