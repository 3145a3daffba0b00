import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT_FAILURE } from "../../src/exit-codes.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";

// A failure inside the main loop ends the process through main's exit-code mapping, with one
// log line, never as an unhandled rejection.

const fixture = fileURLToPath(new URL("./fixtures/failing-bridge.ts", import.meta.url));

let sim: ApiSimulator;
beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: false });
});
afterAll(async () => {
  await sim?.stop();
});

describe("a failure in the main loop", () => {
  it("exits with main's failure code and one fatal line", async () => {
    const line = dieWithParentQuickly(process.execPath, ["--import", "tsx", fixture]);
    const child = spawn(line.command, line.args, {
      env: {
        PATH: process.env.PATH ?? "",
        REWARD_FACTS_API_TOKEN: sim.tokens.household,
        REWARD_FACTS_API_BASE_URL: sim.url,
        REWARD_FACTS_DATA_DIR: join(await mkdtemp(join(tmpdir(), "rf-loop-failure-")), "data"),
        REWARD_FACTS_HEARTBEAT_FILE: join(tmpdir(), `rf-loop-failure-${process.pid}.heartbeat`),
        REWARD_FACTS_LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [child.stdout, child.stderr])
      stream.on("data", (chunk) => (output += String(chunk)));
    const [code] = (await once(child, "exit")) as [number | null];

    expect(code).toBe(EXIT_FAILURE);
    expect(output).toContain(`runBridge returned ${EXIT_FAILURE}`);
    const fatal = output.split("\n").filter((line) => line.includes("the bridge failed and stops"));
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toContain("the sink broke (test fault)");
    expect(output).not.toMatch(/unhandled|UnhandledPromiseRejection/i);
    expect(output).not.toContain(sim.tokens.household);
  }, 60_000);
});
