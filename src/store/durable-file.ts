import { closeSync, fsyncSync, openSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { osErrorCode, StoreWriteError } from "./errors.js";

/**
 * Replaces `filePath` with `data` so that a crash at any moment leaves the old or the new content,
 * and so that once this resolves the new content survives a power cut too: write-file-atomic
 * writes a temp file, fsyncs it and renames it over the target; the rename itself only becomes
 * durable once the directory is fsynced, which write-file-atomic does not do.
 */
export async function writeFileDurably(filePath: string, data: string): Promise<void> {
  try {
    await writeFileAtomic(filePath, data, { fsync: true });
    await syncDirectory(dirname(filePath));
  } catch (error) {
    throw new StoreWriteError("cannot write the store file", filePath, osErrorCode(error), { cause: error });
  }
}

/**
 * The same, synchronously (for a log whose next line must follow the rewrite with nothing in
 * between), throwing the file system's own error for the caller to name.
 */
export function replaceFileDurablySync(filePath: string, data: string): void {
  writeFileAtomic.sync(filePath, data, { fsync: true });
  const handle = openSync(dirname(filePath), "r");
  try {
    fsyncSync(handle);
  } catch (error) {
    if (!unsupportedDirectorySync.has(osErrorCode(error) ?? "")) throw error;
  } finally {
    closeSync(handle);
  }
}

// Some file systems (certain network and FUSE mounts) cannot fsync a directory; there the rename is
// as durable as that file system makes it, and failing every write would help nobody.
const unsupportedDirectorySync = new Set(["EINVAL", "ENOTSUP", "EISDIR"]);

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch (error) {
    if (!unsupportedDirectorySync.has(osErrorCode(error) ?? "")) throw error;
  } finally {
    await handle.close();
  }
}
