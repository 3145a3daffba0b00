import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { RewardFactsClient } from "../../src/api/client.js";
import { asksForHelp, CliUsageError, parseCliArgs } from "../../src/simulator/cli-args.js";
import { ManualClock, ScaledClock } from "../../src/simulator/clock.js";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import { captureLogger } from "./helpers.js";

describe("parseCliArgs", () => {
  it("reads port, seed, speed and start", () => {
    const base = new ManualClock("2026-01-15T09:00:00Z");
    const options = parseCliArgs(
      ["--port", "9000", "--seed", "7", "--speed", "60", "--start", "2026-01-15T06:00:00Z"],
      base,
    );
    expect(options).toMatchObject({ port: 9000, seed: 7 });
    expect(options.clock).toBeInstanceOf(ScaledClock);
    base.advance(60_000);
    expect(options.clock?.now()).toBe(Date.parse("2026-01-15T07:00:00Z"));
  });

  it("keeps real time at speed 1", () => {
    const base = new ManualClock(0);
    expect(parseCliArgs([], base)).toMatchObject({ port: 8787, seed: 42, clock: base });
  });

  it("tells --help (or -h) apart from options", () => {
    expect(asksForHelp(["--port", "9000", "--help"])).toBe(true);
    expect(asksForHelp(["-h"])).toBe(true);
    expect(asksForHelp(["--port", "9000"])).toBe(false);
  });

  it.each([
    [["--port", "abc"]],
    [["--port", "99999"]],
    [["--port", "80.5"]],
    [["--seed", "x"]],
    [["--speed", "0"]],
    [["--start", "soon"]],
    [["--time-zone", "Mars/Olympus_Mons"]],
    [["--facts-per-hour=-1"]],
    [["--colour"]],
    [["extra"]],
  ])("refuses %j", (args) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError);
  });
});

describe("npm run simulator", () => {
  it("serves the demo household, prints what a user needs, and stops on SIGTERM", async () => {
    const cli = fileURLToPath(new URL("../../src/simulator/cli.ts", import.meta.url));
    const line = dieWithParentQuickly(process.execPath, [
      "--import",
      "tsx",
      cli,
      "--port",
      "0",
      "--seed",
      "42",
    ]);
    const child = spawn(line.command, line.args, {
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        output += chunk;
        if (output.includes("Stop with Ctrl-C.")) resolve();
      });
      child.once("exit", () => reject(new Error(`simulator exited early:\n${output}`)));
    });
    const baseUrl = /base URL:\s+(\S+)/.exec(output)?.[1] ?? "";
    const legacyBaseUrl = /legacy base URL:\s+(\S+)/.exec(output)?.[1] ?? "";
    const token = /token \(household\):\s+(\S+)/.exec(output)?.[1] ?? "";
    expect(output).toMatch(/ordinary\s+Léa\s+[0-9a-f-]{36}/);
    expect(output).toMatch(/custody\s+Noah/);
    const client = new RewardFactsClient({ token, baseUrl, legacyBaseUrl, logger: captureLogger().logger });
    const children = await client.listChildren();
    expect(children.map((c) => c.firstName)).toEqual(["Léa", "Noah", "Inès"]);
    await client.close();

    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toContain("Simulator stopped (SIGTERM).");
  });
});
