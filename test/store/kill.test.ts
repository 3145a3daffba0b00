import { type ChildProcess, spawn } from "node:child_process";
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openStore, STORE_FILE_NAME } from "../../src/store/index.js";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import { captureLogger, corruptFilesIn, tempDir, WARN } from "./helpers.js";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const writerScript = fileURLToPath(new URL("./fixtures/store-writer.ts", import.meta.url));
const KILLS = 40;

interface Writer {
  child: ChildProcess;
  /** The highest value the child printed, i.e. that its store acknowledged; -1 before any. */
  lastAck: () => number;
  /** Resolves on the first acknowledged value, or when the child ends without one. */
  firstAck: Promise<void>;
  /** Resolves once the child is gone and its output fully read. */
  ended: Promise<{ signal: NodeJS.Signals | null; stderr: string }>;
}

function startWriter(dataDir: string): Writer {
  // `--import tsx` resolves from the working directory: run from the project root.
  const line = dieWithParentQuickly(process.execPath, ["--import", "tsx", writerScript, dataDir]);
  const child = spawn(line.command, line.args, {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let lastAck = -1;
  let partial = "";
  let stderr = "";
  let onFirstAck: () => void = () => {};
  const firstAck = new Promise<void>((resolve) => {
    onFirstAck = resolve;
  });
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) lastAck = Math.max(lastAck, Number(line));
    if (lastAck >= 0) onFirstAck();
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("close", (_code, signal) => {
      onFirstAck();
      resolve({ signal, stderr });
    });
  });
  return { child, lastAck: () => lastAck, firstAck, ended };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("kill -9", () => {
  it(`loses nothing acknowledged and never corrupts the file over ${KILLS} kills`, {
    timeout: 90_000,
  }, async () => {
    const dataDir = await tempDir();
    let floor = 0;
    let tempFilesSeen = 0;

    for (let round = 0; round < KILLS; round++) {
      const writer = startWriter(dataDir);
      if (round % 4 === 0) {
        // Sometimes while it starts: loading, cleaning up, or its first write at open.
        await sleep(Math.random() * 600);
      } else {
        await writer.firstAck;
        await sleep(Math.random() * 80);
      }
      writer.child.kill("SIGKILL");
      const { signal, stderr } = await writer.ended;
      expect(stderr).toBe("");
      expect(signal).toBe("SIGKILL");
      const acknowledged = Math.max(floor, writer.lastAck());

      tempFilesSeen += (await readdir(dataDir)).filter((name) => /\.\d+$/.test(name)).length;
      const { logger, lines } = captureLogger();
      const store = await openStore({ dataDir, logger });
      const counter = (await store.get<number>("counter")) ?? 0;
      const log = (await store.get<number[]>("log")) ?? [];
      await store.close();

      expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
      expect(await corruptFilesIn(dataDir)).toEqual([]);
      // Nothing acknowledged is lost; at most the one value being written when killed is ahead.
      expect(counter).toBeGreaterThanOrEqual(acknowledged);
      expect(counter).toBeLessThanOrEqual(acknowledged + 1);
      // The array is whole: consecutive values up to at least what was acknowledged.
      expect(log.at(-1) ?? 0).toBeGreaterThanOrEqual(acknowledged);
      expect(log.every((value, i) => i === 0 || value === (log[i - 1] ?? Number.NaN) + 1)).toBe(true);
      floor = counter;
    }

    // Many rounds ran long enough to acknowledge plenty; open cleaned up after interrupted writes.
    expect(floor).toBeGreaterThan(KILLS);
    expect(await readdir(dataDir)).toEqual([STORE_FILE_NAME]);
    console.info(
      `kill -9: ${KILLS} kills, counter reached ${floor}, ${tempFilesSeen} interrupted writes seen`,
    );
  });
});
