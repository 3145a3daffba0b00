import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Every command a user runs, given a bad command-line value as they would type it through npm:
// exit code 2 and one line on standard error naming the command and the value, before anything
// starts (no port opened, no file written, no Home Assistant asked).

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Runs `npm run --silent <script> -- <args>`; resolves with its exit code and output. */
function npmRun(script: string, args: readonly string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "npm",
      ["run", "--silent", script, "--", ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, HA_URL: "", HA_TOKEN: "" } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? null) : 0, stdout, stderr }),
    );
  });
}

describe.each([
  ["start", ["--port", "8080"], "--port"],
  ["start", ["extra"], "extra"],
  ["demo", ["--speed", "0"], "--speed"],
  ["demo", ["--start", "25:00"], "--start"],
  ["simulator", ["--port", "99999"], "--port"],
  ["simulator", ["--port", "abc"], "--port"],
  ["simulator", ["--time-zone", "Mars/Olympus_Mons"], "--time-zone"],
  ["simulator", ["--facts-per-hour", "-1"], "--facts-per-hour"],
  ["simulator", ["--facts-per-hour=-1"], "--facts-per-hour must be 0 or more"],
  ["addon:bundle", ["--url", "example"], "--url"],
  ["dashboard", ["--colour"], "--colour"],
  ["blueprints", ["--colour"], "--colour"],
  ["bench", ["--only", "nothing"], "nothing"],
  ["soak", ["--rounds", "many"], "--rounds"],
])("npm run %s -- %j", (script, args, named) => {
  it("exits 2 with one line that names the value", async () => {
    const { code, stderr, stdout } = await npmRun(script, args);
    expect(code, stderr).toBe(2);
    const lines = stderr.split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    const command = script === "start" ? "npm start" : `npm run ${script}`;
    expect(lines[0]).toMatch(new RegExp(`^${command}: `));
    expect(lines[0]).toContain(named);
    expect(stdout).not.toMatch(/listening|base URL|wrote /i);
  }, 60_000);
});
