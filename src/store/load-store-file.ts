import { lstat, readdir, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { Logger } from "../log/logger.js";
import { osErrorCode, StoreOpenError } from "./errors.js";
import type { JsonValue } from "./json.js";
import { decodeStoreFile, isLeftoverTempFile } from "./store-file.js";

export interface LoadStoreFileOptions {
  filePath: string;
  logger: Logger;
  now: () => Date;
}

/**
 * The entries of the store file: none when it does not exist yet. A file that is not a store
 * (garbage, truncated, foreign JSON) is moved aside for a person to inspect, never emptied in
 * place, and the store starts empty: losing cursors means events come again, which the engine's
 * delivered set absorbs, while refusing to start would deliver nothing at all.
 */
export async function loadStoreFile(options: LoadStoreFileOptions): Promise<Map<string, JsonValue>> {
  const { filePath, logger } = options;
  let bytes: Buffer;
  try {
    bytes = await readFile(filePath);
  } catch (error) {
    const code = osErrorCode(error);
    if (code === "ENOENT") return new Map();
    throw new StoreOpenError("cannot read the store file", filePath, code, { cause: error });
  }
  const decoded = decodeStoreFile(bytes.toString("utf8"));
  if (decoded.ok) return decoded.entries;

  const movedTo = await moveAside(filePath, options.now());
  logger.warn(
    { path: filePath, movedTo, reason: decoded.reason },
    "store file is unreadable: moved it aside and starting with an empty store",
  );
  return new Map();
}

async function moveAside(filePath: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  try {
    // rename() replaces an existing target: never let a second corruption bury the first one.
    let target = `${filePath}.corrupt-${stamp}`;
    for (let n = 1; await exists(target); n++) target = `${filePath}.corrupt-${stamp}-${n}`;
    await rename(filePath, target);
    return target;
  } catch (error) {
    throw new StoreOpenError("cannot move the unreadable store file aside", filePath, osErrorCode(error), {
      cause: error,
    });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (osErrorCode(error) === "ENOENT") return false;
    throw error;
  }
}

/**
 * Deletes temp files that a killed write left next to the store file. Safe because one process
 * owns the data directory, and at open no write of ours is running; best effort, since a leftover
 * only costs disk space.
 */
export async function removeLeftoverTempFiles(filePath: string, logger: Logger): Promise<void> {
  const dir = dirname(filePath);
  const name = basename(filePath);
  try {
    const leftovers = (await readdir(dir)).filter((entry) => isLeftoverTempFile(entry, name));
    for (const entry of leftovers) await unlink(join(dir, entry));
    if (leftovers.length > 0) {
      logger.info({ dir, count: leftovers.length }, "removed temp files left by an interrupted write");
    }
  } catch (error) {
    logger.warn({ dir, code: osErrorCode(error) }, "could not remove leftover temp files");
  }
}
