import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { EXIT_CONFIG, EXIT_FAILURE } from "../../src/exit-codes.js";
import { main } from "../../src/tools/dashboard.js";

// `npm run dashboard`, run in this process, where no Home Assistant is needed to show it: what it
// says when its settings are missing, and when the Home Assistant it is pointed at is not up. Once
// connected it writes what the keeper writes (test/ha/dashboard, on a real Home Assistant).

const HA_TOKEN = "ha-token-that-must-never-show-0123456789";

/** Runs the command; its exit code and the lines it wrote to each stream. */
async function dashboard(env: NodeJS.ProcessEnv) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main([], {
    env,
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
  });
  return { code, stdout, stderr };
}

/** A port nothing listens on: a Home Assistant that is not up. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("npm run dashboard", () => {
  it("names each missing setting on a line of its own, exit 2, asking nothing", async () => {
    expect(await dashboard({})).toEqual({
      code: EXIT_CONFIG,
      stdout: [],
      stderr: [
        "HA_URL: required (e.g. http://homeassistant.local:8123)",
        "HA_TOKEN: required (a long-lived token of an administrator)",
      ],
    });
    expect((await dashboard({ HA_URL: "homeassistant:8123", HA_TOKEN })).stderr).toEqual([
      "HA_URL: must be an http:// or https:// URL",
    ]);
  });

  it("gives up at once on a Home Assistant that is not up: one line, exit 1, the token never shown", async () => {
    const { code, stdout, stderr } = await dashboard({
      HA_URL: `http://127.0.0.1:${await closedPort()}/`,
      HA_TOKEN,
    });
    expect(code).toBe(EXIT_FAILURE);
    expect(stdout).toEqual([]);
    expect(stderr).toEqual(["npm run dashboard: cannot connect to Home Assistant"]);
    expect(stderr.join("\n")).not.toContain(HA_TOKEN);
  });
});
