import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, STORE_FILE_NAME, StoreOpenError } from "../../src/store/index.js";
import { captureLogger, dirAtPathLimit, tempDir, WARN } from "./helpers.js";

// What opening finds in the data directory besides a store file, valid or corrupt
// (corrupt-file.test.ts): a store file it cannot read at all, and leftovers it cannot remove.

describe("loading the store file", () => {
  it("refuses a store file it cannot read with a StoreOpenError naming it, and moves nothing aside", async () => {
    const dataDir = await tempDir();
    const filePath = join(dataDir, STORE_FILE_NAME);
    // Not a file of garbage, which would be moved aside: no file at all to read.
    await mkdir(filePath);
    const { logger } = captureLogger();

    const refused = await openStore({ dataDir, logger }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreOpenError);
    expect(refused).toMatchObject({
      message: `cannot read the store file: ${filePath} (EISDIR)`,
      path: filePath,
      code: "EISDIR",
    });
    expect(await readdir(dataDir)).toEqual([STORE_FILE_NAME]);
  });

  it("refuses an unreadable store file it cannot move aside, and leaves it as it was", async () => {
    // No name beside it can be made: the corrupt file cannot be kept for a person to inspect, and
    // an empty store in its place would lose it.
    const dataDir = await dirAtPathLimit(STORE_FILE_NAME);
    const filePath = join(dataDir, STORE_FILE_NAME);
    await writeFile(filePath, "{ not a store");
    const { logger, lines } = captureLogger();

    const refused = await openStore({ dataDir, logger }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreOpenError);
    expect(refused).toMatchObject({
      message: `cannot move the unreadable store file aside: ${filePath} (ENAMETOOLONG)`,
      path: filePath,
      code: "ENAMETOOLONG",
    });
    expect(await readdir(dataDir)).toEqual([STORE_FILE_NAME]);
    expect(await readFile(filePath, "utf8")).toBe("{ not a store");
    expect(lines.filter((line) => line.level === WARN)).toEqual([]);
  });

  it("opens all the same when a leftover of a killed write cannot be removed, and says so", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, `${STORE_FILE_NAME}.1234`), "half a store");
    // Named as a leftover, but a directory: unlink refuses it.
    await mkdir(join(dataDir, `${STORE_FILE_NAME}.5678`));
    const { logger, lines } = captureLogger();

    const store = await openStore({ dataDir, logger });
    await store.set("cursor:c1", "abc");
    await store.close();

    expect(lines.filter((line) => line.level === WARN)).toEqual([
      expect.objectContaining({ msg: "could not remove leftover temp files", dir: dataDir, code: "EISDIR" }),
    ]);
  });
});
