import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
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

/** The longest path the kernel takes (PATH_MAX, 4096 on Linux, less its final NUL). */
export const LONGEST_PATH = 4095;

/**
 * A fresh directory so deep that `<it>/<fileName>` is exactly the longest path the kernel takes:
 * the file can be read and written in place, but no name longer than it (a temporary file beside
 * it, a file moved aside) can be made. A directory refusing some writes even to root, which the
 * file system's permissions do not.
 */
export async function dirAtPathLimit(fileName: string): Promise<string> {
  let dir = await tempDir();
  for (;;) {
    const room = LONGEST_PATH - (dir.length + 1 + fileName.length) - 1;
    if (room <= 0) break;
    // The last part takes what room is left; none before it leaves room for a name of 0.
    dir = join(dir, "d".repeat(room <= 200 ? room : Math.min(200, room - 2)));
  }
  await mkdir(dir, { recursive: true });
  if (join(dir, fileName).length !== LONGEST_PATH)
    throw new Error(`no directory at the limit: ${dir.length}`);
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
