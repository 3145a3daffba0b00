import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { onTestFinished } from "vitest";
import { createLogger, type Logger } from "../../src/log/logger.js";

/** A fresh directory under the OS temp dir, removed when the current test ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "rf-store-test-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A real logger whose JSON lines land in `lines`. */
export function captureLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() !== "") lines.push(JSON.parse(line) as LogLine);
      }
      callback();
    },
  });
  return { logger: createLogger({ json: true, level: "trace", destination }), lines };
}

export const WARN = 40;

/** The store file as a fresh reader sees it: `entries` maps each key to keyv's `{ value }`. */
export async function readStoreFile(path: string): Promise<{ entries: Record<string, { value: unknown }> }> {
  return JSON.parse(await readFile(path, "utf8")) as { entries: Record<string, { value: unknown }> };
}

export async function corruptFilesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.includes(".corrupt-"));
}
