import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import { waitFor } from "../support/wait-for.js";

const main = fileURLToPath(new URL("../../src/demo/main.ts", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

const children: ChildProcess[] = [];
let scratch: string | undefined;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe("npm run demo, its output piped", () => {
  it("shows the demo children, facts and the bridge's status in plain lines, and stops cleanly on SIGTERM", async () => {
    // The demo's temporary store goes here, so that its removal at stop can be checked.
    scratch = await mkdtemp(join(tmpdir(), "rf-demo-run-"));
    const started = Date.now();
    // --start 20:00: by then every day of the demo household has facts (the default 16:00 has
    // about two days a year with none yet), so the first poll always has some to show.
    const demoLine = dieWithParentQuickly(process.execPath, ["--import", "tsx", main, "--start", "20:00"]);
    const demo = spawn(demoLine.command, demoLine.args, {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        TZ: "Europe/Paris",
        TMPDIR: scratch,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(demo);
    let stdout = "";
    let stderr = "";
    demo.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    demo.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = once(demo, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const lines = () => stdout.split("\n");

    await waitFor(
      () =>
        lines().some((l) => /^Léa: \d+ min left, \d+\/\d+ points/.test(l)) &&
        lines().some((l) => /^Noah: (\d+ min left|the other household's day \(0 min\))/.test(l)) &&
        lines().includes("Inès: unavailable (no rules synced yet)") &&
        lines().some((l) =>
          /^(Léa|Noah) · (behavior validated|session started|menu item used|cheer): /.test(l),
        ) &&
        lines().includes("status ok"),
      {
        timeoutMs: 20_000,
        description: () => `the demo's children, a fact and its status in:\n${stdout}${stderr}`,
      },
    );
    const demoDirs = async () =>
      (await readdir(scratch as string)).filter((name) => name.startsWith("reward-facts-demo-"));
    expect(await demoDirs()).toHaveLength(1);
    expect(lines()[0]).toMatch(/^Household Reward Facts bridge: demo\. Ctrl-C to stop\./);
    expect(stdout).toContain("no real data");
    // A few more rounds of polling at the demo's pace, with nothing going wrong.
    await sleep(Math.max(0, 12_000 - (Date.now() - started)));
    expect(demo.exitCode).toBeNull();

    const stopAsked = Date.now();
    demo.kill("SIGTERM");
    const [code, signal] = await Promise.race([
      exited,
      sleep(5_000).then(() => {
        throw new Error(`the demo did not stop within 5 s:\n${stdout}${stderr}`);
      }),
    ]);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopAsked).toBeLessThan(5_000);
    expect(lines()).toContain("Demo stopped (SIGTERM).");

    const output = stdout + stderr;
    expect(output).not.toMatch(/rf_api_/);
    // Plain lines only: a pipe or a CI log gets no cursor movement.
    expect(output).not.toContain("\u001B[");
    expect(stderr).not.toMatch(/ERROR|unexpected/i);
    expect(await demoDirs()).toEqual([]);
  }, 30_000);
});

describe("npm run demo in a terminal", () => {
  it("redraws the table in place, and stops cleanly on SIGTERM", async () => {
    // util-linux's `script` makes the pseudo-terminal; without it this test cannot run, and says so.
    if (spawnSync("script", ["--version"]).status !== 0) {
      throw new Error(
        "this test needs `script` (util-linux) to give the demo a terminal: install util-linux",
      );
    }
    // `script` gives the demo a pseudo-terminal; stty gives it a size, as a terminal window has.
    const command = `stty rows 40 cols 110; exec "${process.execPath}" --import tsx "${main}" --start 20:00`;
    const terminalLine = dieWithParentQuickly("script", ["-qfec", command, "/dev/null"]);
    const terminal = spawn(terminalLine.command, terminalLine.args, {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TZ: "Europe/Paris", TERM: "xterm" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(terminal);
    let output = "";
    for (const stream of [terminal.stdout, terminal.stderr]) {
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
    }
    const exited = once(terminal, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    const frames = () => output.split("│ child ").length - 1;

    // Everything asserted below is waited for: the children's rows come as each is first read, in
    // any order, and on a loaded machine the status can be drawn before the last of them.
    await waitFor(
      () => {
        const shown = stripTerminal(output);
        return (
          shown.includes("Household time: ") &&
          shown.includes("Bridge: ok") &&
          frames() >= 2 &&
          /│ Léa +│ \d+ +│ \d+\/\d+ +│ \d+ d +│/.test(shown) &&
          shown.includes("│ Inès  │ unavailable: no rules synced yet") &&
          /Latest events \(newest first\):\n {2}\d\d:\d\d {2}(Léa|Noah)/.test(shown)
        );
      },
      { timeoutMs: 20_000, description: () => `the live view in:\n${output}` },
    );
    const screen = stripTerminal(output);
    expect(screen).toMatch(/│ Léa +│ \d+ +│ \d+\/\d+ +│ \d+ d +│/);
    expect(screen).toContain("│ Inès  │ unavailable: no rules synced yet");
    expect(screen).toMatch(/Latest events \(newest first\):\n {2}\d\d:\d\d {2}(Léa|Noah)/);
    // Drawn in place: cursor movements, not one table after another in the scrollback.
    expect(output).toContain("\u001B[");

    // The demo is script's child: SIGTERM goes to it, as Ctrl-C's SIGINT would.
    const pid = terminal.pid as number;
    const demoPid = Number((await readFile(`/proc/${pid}/task/${pid}/children`, "utf8")).trim());
    process.kill(demoPid, "SIGTERM");
    const [code] = await Promise.race([
      exited,
      sleep(5_000).then(() => {
        throw new Error(`the demo did not stop within 5 s:\n${output}`);
      }),
    ]);
    expect(code).toBe(0);
    expect(output).toContain("Demo stopped (SIGTERM).");
    expect(output).not.toMatch(/rf_api_/);
  }, 30_000);
});

/** What a terminal would show, roughly: escape sequences and carriage returns removed. */
function stripTerminal(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escapes is the point
  return text.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, "").replace(/\r/g, "");
}
