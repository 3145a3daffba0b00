import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { householdStart } from "../../src/demo/household-clock.js";
import { localDateOf, offsetMsAt } from "../../src/time/zoned.js";
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

describe("npm run demo at its highest speed", () => {
  it("marks no fact of its own time replayed, and shows every time in the household's zone", async () => {
    // The household starts at midnight in a zone where the real evening has come: its clock runs
    // hours behind the real one, and its morning's facts happen (and are read) in the demo's own
    // time. Judged by the bridge's clock as the API dates them, they were hours old: replayed.
    const zone = eveningZone(Date.now());
    const startsAt = householdStart({ hour: 0, minute: 0 }, zone, Date.now());
    const line = dieWithParentQuickly(process.execPath, [
      "--import",
      "tsx",
      main,
      "--speed",
      "3600",
      "--start",
      "00:00",
    ]);
    const demo = spawn(line.command, line.args, {
      cwd: root,
      // TZ: the household's zone is the user's own (householdTimeZone).
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TZ: zone },
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
    const facts = () =>
      stdout
        .split("\n")
        .map((text) => /^(?:Léa|Noah) · (.+) \(([^,)]+)(, replayed)?\)$/.exec(text))
        .filter((match) => match !== null)
        .map(([text, what, time, replayed]) => ({
          text,
          what: what ?? "",
          at: Date.parse(time ?? ""),
          replayed: replayed !== undefined,
        }));
    // The journal's facts of the household's own time (derived ones are dated by the bridge).
    const liveJournal = () =>
      facts().filter(
        (fact) =>
          fact.at >= startsAt &&
          /^(behavior validated|session started|menu item used|cheer):/.test(fact.what),
      );

    // Some hours of the household's morning: 13 s apart, its polls read 13 of its hours at a time.
    await waitFor(() => liveJournal().length >= 4, {
      timeoutMs: 40_000,
      description: () => `four facts of the demo's own time (from ${zone} midnight) in:\n${stdout}${stderr}`,
    });
    demo.kill("SIGTERM");
    const [code] = await Promise.race([
      exited,
      sleep(5_000).then(() => {
        throw new Error(`the demo did not stop within 5 s:\n${stdout}${stderr}`);
      }),
    ]);
    expect(code).toBe(0);

    // The household did run behind the real time: the case this is about.
    expect(liveJournal().some((fact) => fact.at < Date.now() - 60 * 60_000)).toBe(true);
    expect(facts().filter((fact) => fact.at >= startsAt && fact.replayed)).toEqual([]);
    // Every time as a clock in the household reads it, with its offset: never UTC's `Z`.
    const shown = [...stdout.matchAll(/\d{4}-\d\d-\d\dT[^\s,)]+/g)].map(([time]) => time);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const time of shown) {
      const at = Date.parse(time);
      const offset = offsetMsAt(at, zone);
      const sign = offset < 0 ? "-" : "+";
      const hours = String(Math.floor(Math.abs(offset) / 3_600_000)).padStart(2, "0");
      const minutes = String((Math.abs(offset) / 60_000) % 60).padStart(2, "0");
      expect(time).toBe(`${new Date(at + offset).toISOString().slice(0, 19)}${sign}${hours}:${minutes}`);
    }
    expect(stderr).not.toMatch(/ERROR/);
  }, 60_000);
});

/**
 * A zone where it is evening now, between 19:00 and 23:00 (the household's day not about to end):
 * these zones are never more than three hours apart, so one of them always is. None is UTC.
 */
function eveningZone(now: number): string {
  const zones = [
    "Pacific/Kiritimati",
    "Pacific/Tongatapu",
    "Australia/Brisbane",
    "Asia/Tokyo",
    "Asia/Bangkok",
    "Asia/Kolkata",
    "Asia/Dubai",
    "Europe/Moscow",
    "Europe/Paris",
    "Atlantic/Cape_Verde",
    "America/Sao_Paulo",
    "America/New_York",
    "America/Denver",
    "America/Los_Angeles",
  ];
  const hourIn = (zone: string) => {
    const midnight = Date.parse(`${localDateOf(now, zone)}T00:00:00Z`) - offsetMsAt(now, zone);
    return (now - midnight) / 3_600_000;
  };
  const zone = zones.find((candidate) => hourIn(candidate) >= 19 && hourIn(candidate) < 23);
  if (!zone) throw new Error(`no zone of the list is in its evening at ${new Date(now).toISOString()}`);
  return zone;
}

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
