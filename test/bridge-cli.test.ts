import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bridgeCommand, parseBridgeArgs } from "../src/bridge-cli.js";
import { bridgeHelp } from "../src/config/help.js";
import { EXIT_CONFIG, EXIT_OK } from "../src/exit-codes.js";
import { waitFor } from "./support/wait-for.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A Node.js line the bridge runs on, whatever runs the tests. */
const SUPPORTED = "22.12.0";

describe("the bridge's command line", () => {
  it("runs the bridge without arguments, the removal with --remove, the help with --help", () => {
    expect(parseBridgeArgs([])).toEqual({ run: "bridge" });
    expect(parseBridgeArgs(["--remove"])).toEqual({ run: "removal", force: false });
    expect(parseBridgeArgs(["--remove", "--force"])).toEqual({ run: "removal", force: true });
    expect(parseBridgeArgs(["--help"])).toBe("help");
    expect(parseBridgeArgs(["-h", "--remove"])).toBe("help");
  });

  it("refuses what it does not know, by name", () => {
    expect(parseBridgeArgs(["--purge"])).toEqual({ problem: expect.stringMatching(/--purge/) });
    expect(parseBridgeArgs(["remove"])).toEqual({ problem: expect.any(String) });
    // --force is the removal's: on its own it would go unheard.
    expect(parseBridgeArgs(["--force"])).toEqual({ problem: "--force goes with --remove" });
  });

  it("mentions the removal and its other spellings in --help", () => {
    const help = bridgeHelp();
    expect(help).toContain("--remove");
    expect(help).toContain("REWARD_FACTS_REMOVE");
    expect(help).toContain("remove_from_home_assistant");
  });
});

/** What a command writes to each stream, as main.ts would hand them over. */
function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (text: string) => out.push(text), stderr: (text: string) => err.push(text) },
  };
}

/** Standard output and error of this process, kept: what runBridge writes (its log, its refusals). */
function captureProcessOutput(): { out: string[]; err: string[] } {
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
  return { out, err };
}

describe("bridgeCommand", () => {
  it("prints the help on standard output and exits 0, starting nothing", async () => {
    const streams = io();
    // No token: a bridge that started would refuse its configuration instead.
    expect(await bridgeCommand(["--help"], {}, streams.io)).toBe(EXIT_OK);
    expect(streams.out).toEqual([`${bridgeHelp()}\n`]);
    expect(streams.err).toEqual([]);
  });

  it("answers a bad argument with one usage line on standard error and exit 2, starting nothing", async () => {
    const streams = io();
    expect(await bridgeCommand(["--purge"], {}, streams.io)).toBe(EXIT_CONFIG);
    expect(streams.err).toHaveLength(1);
    expect(streams.err[0]).toMatch(/^npm start: .*--purge.* \(npm start -- --help lists the options\)\n$/);
    expect(streams.out).toEqual([]);
  });

  it("echoes an unknown option cut short: a 100,000-character one comes back in one short line", async () => {
    const stderr: string[] = [];
    const code = await bridgeCommand(
      [`--${"x".repeat(100_000)}`],
      {},
      {
        stdout: () => undefined,
        stderr: (text) => stderr.push(text),
      },
    );
    expect(code).toBe(EXIT_CONFIG);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]?.length).toBeLessThan(400);
    expect(stderr[0]).toMatch(
      /^npm start: .*--xxxx.*… \(\d+ characters\) \(npm start -- --help lists the options\)\n$/,
    );
  });

  it("writes to the process's own streams unless given others", async () => {
    const output = captureProcessOutput();
    expect(await bridgeCommand(["-h"], {})).toBe(EXIT_OK);
    expect(await bridgeCommand(["--purge"], {})).toBe(EXIT_CONFIG);
    expect(output.out).toEqual([`${bridgeHelp()}\n`]);
    expect(output.err.join("")).toContain("--purge");
  });

  it("runs the bridge without arguments: here refused for its missing token, exit 2", async () => {
    const output = captureProcessOutput();
    expect(await bridgeCommand([], {}, io().io, SUPPORTED)).toBe(EXIT_CONFIG);
    expect(output.err.join("")).toContain("REWARD_FACTS_API_TOKEN: is required");
  });

  it("refuses a Node.js line it does not run on, in one line that says how to get one, before anything", async () => {
    for (const old of ["20.19.4", "22.11.0", "23.9.0", "18.20.0"]) {
      const streams = io();
      expect(await bridgeCommand([], {}, streams.io, old)).toBe(EXIT_CONFIG);
      expect(streams.err).toEqual([
        `Node.js ${old} is not supported: the bridge runs on Node.js 22 (22.12 or later), 24 or 26; without one installed, run it with npx --yes --package=node@22 -- npm start\n`,
      ]);
    }
    // --help still answers.
    expect(await bridgeCommand(["--help"], {}, io().io, "20.19.4")).toBe(EXIT_OK);
  });

  it("runs the removal step with --remove, whatever the options say: here without Home Assistant, exit 2", async () => {
    const output = captureProcessOutput();
    const dir = await mkdtemp(join(tmpdir(), "rf-bridge-cli-"));
    const env = {
      REWARD_FACTS_API_TOKEN: "rf_api_of_a_test_0123456789",
      // Never asked: the removal talks to Home Assistant only.
      REWARD_FACTS_API_BASE_URL: "http://127.0.0.1:9/api/v1",
      REWARD_FACTS_DATA_DIR: join(dir, "data"),
      REWARD_FACTS_HEARTBEAT_FILE: join(dir, "heartbeat"),
    };
    expect(await bridgeCommand(["--remove"], env, io().io, SUPPORTED)).toBe(EXIT_CONFIG);
    await waitFor(() => output.out.join("").includes("REWARD_FACTS_REMOVE: needs HA_URL and HA_TOKEN"));
  });
});
