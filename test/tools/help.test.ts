import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// `--help` as a user types it, through npm: one `--` and then the flag. Each command prints its
// usage (every flag after a single `--`) and exits 0, starting nothing.

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

describe.each([
  ["demo", /^Usage: npm run demo -- \[--speed X\] \[--start HH:MM\]$/m],
  ["simulator", /^Usage: npm run simulator -- \[--port N\] \[--seed S\]/m],
  ["addon:bundle", /^usage: npm run addon:bundle -- \[--out DIR\]/m],
  ["dashboard", /^Usage: npm run dashboard -- \[--help\]$/m],
  ["blueprints", /^Usage: npm run blueprints -- \[--help\]$/m],
  // The bridge: its options and environment variables (test/config/help.test.ts checks them all).
  ["start", /^Usage: npm start -- \[--remove\] \[--help\]$[\s\S]*REWARD_FACTS_API_TOKEN[\s\S]*HA_URL/m],
])("npm run %s -- --help", (script, usage) => {
  it("prints the usage with one -- before every flag, and exits 0", async () => {
    const { stdout, stderr } = await run("npm", ["run", "--silent", script, "--", "--help"], {
      cwd: root,
      timeout: 30_000,
      env: { ...process.env, HA_URL: "", HA_TOKEN: "" },
    });
    expect(stdout).toMatch(usage);
    expect(stdout).toContain("--help");
    // No usage line suggests a `--` per flag.
    expect(stdout).not.toMatch(/\[-- --/);
    expect(stderr).not.toMatch(/Unknown option|error/i);
  });
});
