import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator } from "../../src/simulator/index.js";
import { STORE_FILE_NAME } from "../../src/store/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { waitFor } from "../support/wait-for.js";

// The bridge as users start it (`npm start`), given bad configuration, a corrupt store file and
// a data directory that refuses writes.

let sim: ApiSimulator;
const bridges: BridgeProcess[] = [];
beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: { historyDays: 0, factsPerHour: 0 } });
});
afterAll(async () => {
  for (const bridge of bridges) await bridge.kill();
  await sim?.stop();
});

function bridge(env: Record<string, string>): BridgeProcess {
  const process = new BridgeProcess(env).start();
  bridges.push(process);
  return process;
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "rf-bad-"));
}

const good = () => ({
  REWARD_FACTS_API_TOKEN: sim.tokens.household,
  REWARD_FACTS_API_BASE_URL: sim.url,
  REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
});

describe("bad configuration", () => {
  it.each<[string, Record<string, string>, string[]]>([
    ["an empty token", { REWARD_FACTS_API_TOKEN: "" }, ["REWARD_FACTS_API_TOKEN: is required"]],
    [
      "a token without rf_api_",
      { REWARD_FACTS_API_TOKEN: "abc_secret_value_123" },
      ["REWARD_FACTS_API_TOKEN: must begin with rf_api_"],
    ],
    [
      "http on a remote host",
      { REWARD_FACTS_API_BASE_URL: "http://api.example.com/v1" },
      ["REWARD_FACTS_API_BASE_URL: must use https (http only on a loopback address)"],
    ],
    [
      "intervals out of range",
      { REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "1", REWARD_FACTS_TODAY_INTERVAL_SECONDS: "100000" },
      [
        "REWARD_FACTS_EVENTS_INTERVAL_SECONDS: must be at least 10",
        "REWARD_FACTS_TODAY_INTERVAL_SECONDS: must be at most 3600",
      ],
    ],
    [
      "a bad log level",
      { REWARD_FACTS_LOG_LEVEL: "chatty" },
      ["REWARD_FACTS_LOG_LEVEL: must be one of trace, debug, info, notice, warning, error, fatal"],
    ],
    [
      "HA_URL without HA_TOKEN",
      { HA_URL: "http://127.0.0.1:8123" },
      ["HA_TOKEN: required when HA_URL is set (a long-lived token of an admin user)"],
    ],
  ])("stops at %s: one line per problem, exit 2, nothing written", async (_what, bad, lines) => {
    const dataDir = join(await tempDir(), "data");
    const process = bridge({ ...good(), REWARD_FACTS_DATA_DIR: dataDir, ...bad });
    expect(await process.exited()).toBe(2);
    expect(process.output).toEqual(lines);
    expect(existsSync(dataDir)).toBe(false);
  });

  it("stops at an unreadable or invalid options.json in the add-on", async () => {
    const dir = await tempDir();
    const dataDir = join(dir, "data");
    const optionsFile = join(dir, "options.json");
    await writeFile(optionsFile, "{ not json");
    const addon = { SUPERVISOR_TOKEN: "supervisor-token-value", REWARD_FACTS_OPTIONS_FILE: optionsFile };
    const invalid = bridge({ ...addon, REWARD_FACTS_DATA_DIR: dataDir });
    expect(await invalid.exited()).toBe(2);
    expect(invalid.output).toEqual([`${optionsFile}: is not valid JSON`]);
    const missing = bridge({
      ...addon,
      REWARD_FACTS_OPTIONS_FILE: join(dir, "nope.json"),
      REWARD_FACTS_DATA_DIR: dataDir,
    });
    expect(await missing.exited()).toBe(2);
    expect(missing.output).toEqual([`${join(dir, "nope.json")}: cannot be read (ENOENT)`]);
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe("a damaged data directory", () => {
  it("moves a corrupt store file aside with a warning and carries on", async () => {
    const dataDir = join(await tempDir(), "data");
    await mkdir(dataDir);
    await writeFile(join(dataDir, STORE_FILE_NAME), '{"format":"reward-facts-store","entr');
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "seen" });
    const process = bridge({ ...good(), REWARD_FACTS_DATA_DIR: dataDir });
    await waitFor(() => process.text().includes(fact.at), { timeoutMs: 20_000 });
    const files = await readdir(dataDir);
    const aside = files.find((f) => f.startsWith(`${STORE_FILE_NAME}.corrupt-`));
    expect(aside).toBeDefined();
    expect(await readFile(join(dataDir, aside as string), "utf8")).toBe(
      '{"format":"reward-facts-store","entr',
    );
    expect(process.text()).toMatch(/WARN.*corrupt/i);
    expect(process.running).toBe(true);
    expect(await process.stop()).toBe(0);
  });

  it("waits for a data directory that refuses writes, without exiting, and goes on once it works", async () => {
    const dir = await tempDir();
    const dataDir = join(dir, "data");
    // A regular file where the directory should be refuses writes, even to root.
    await writeFile(dataDir, "in the way");
    const process = bridge({ ...good(), REWARD_FACTS_DATA_DIR: dataDir });
    await waitFor(() => process.text().includes("cannot use the data directory"), { timeoutMs: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(process.running).toBe(true);
    expect(process.output.filter((line) => line.includes("cannot use the data directory"))).toHaveLength(1);
    expect(process.text()).toContain(dataDir);
    // Nothing was read from the API meanwhile, so nothing can have been lost.
    expect(process.text()).not.toMatch(/following a child/);

    await rm(dataDir);
    await mkdir(dataDir);
    const fact = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "super" });
    await waitFor(() => process.text().includes(fact.at), { timeoutMs: 20_000 });
    expect(process.text()).toContain("the data directory works now");
    expect(await process.stop()).toBe(0);
  });
});

describe("secrets", () => {
  it("never shows the API token in any output of these runs", () => {
    for (const process of bridges) expect(process.text()).not.toContain(sim.tokens.household);
  });
});
