import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log/logger.js";
import { openStore, STORE_FILE_NAME, StoreOpenError, StoreWriteError } from "../../src/store/index.js";
import { dirAtPathLimit, readStoreFile, tempDir } from "./helpers.js";

const logger = silentLogger();

async function openError(dataDir: string): Promise<StoreOpenError> {
  const error = await openStore({ dataDir, logger }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  return error as StoreOpenError;
}

describe("a data dir that refuses writes", () => {
  it("fails to open with the path and ENOTDIR when a parent is a regular file", async () => {
    const root = await tempDir();
    await writeFile(join(root, "file"), "not a directory");
    const dataDir = join(root, "file", "data");

    const error = await openError(dataDir);

    expect(error.path).toBe(dataDir);
    expect(error.code).toBe("ENOTDIR");
    expect(error.message).toContain(dataDir);
    expect(await readFile(join(root, "file"), "utf8")).toBe("not a directory");
  });

  it("fails to open with the path when the data dir itself is a regular file", async () => {
    const dataDir = join(await tempDir(), "data");
    await writeFile(dataDir, "not a directory");
    const error = await openError(dataDir);
    expect(error.path).toBe(dataDir);
    expect(error.code).toBeDefined();
  });

  it("fails to open, naming the file and the OS code, when not even the first write can be made", async () => {
    // The store file's own path is within the kernel's limit, its temporary file's is not.
    const dataDir = await dirAtPathLimit(STORE_FILE_NAME);
    const error = await openError(dataDir);
    expect(error).toMatchObject({
      message: `the data directory refuses writes: ${join(dataDir, STORE_FILE_NAME)} (ENAMETOOLONG)`,
      path: join(dataDir, STORE_FILE_NAME),
      code: "ENAMETOOLONG",
    });
    // Nothing half-written left behind for the next start to read.
    expect(await readdir(dataDir)).toEqual([]);
  });

  it("rejects a set with StoreWriteError when the dir goes away, and catches up once it is back", async () => {
    const dataDir = join(await tempDir(), "data");
    const store = await openStore({ dataDir, logger });
    await store.set("cursor:c1", "before");

    // A regular file where the directory was refuses writes even to root.
    await rm(dataDir, { recursive: true });
    await writeFile(dataDir, "in the way");
    const error = await store.set("cursor:c1", "during").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreWriteError);
    expect((error as StoreWriteError).code).toBe("ENOTDIR");
    expect((error as StoreWriteError).path).toBe(join(dataDir, STORE_FILE_NAME));
    await expect(store.flush()).rejects.toBeInstanceOf(StoreWriteError);

    await rm(dataDir);
    await mkdir(dataDir);
    // The value whose write failed is still in memory; flush writes it now.
    await store.flush();
    expect((await readStoreFile(store.path)).entries["cursor:c1"]).toEqual({ value: "during" });
    await store.close();
  });
});
