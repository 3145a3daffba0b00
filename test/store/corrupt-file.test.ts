import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openStore, STORE_FILE_NAME } from "../../src/store/index.js";
import { decodeStoreFile } from "../../src/store/store-file.js";
import { captureLogger, corruptFilesIn, readStoreFile, tempDir, WARN } from "./helpers.js";

const validStore = JSON.stringify({ format: "reward-facts-store", version: 1, entries: { a: { value: 1 } } });

const corruptContents: Array<[string, Buffer]> = [
  ["garbage bytes", Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x7b, 0x22, 0xc3, 0x28, 0x0a])],
  ["an empty file", Buffer.alloc(0)],
  ["truncated JSON", Buffer.from(validStore.slice(0, validStore.length - 7))],
  ["a JSON array", Buffer.from('["cursor:c1", "abc"]')],
  ["a JSON string", Buffer.from('"reward-facts-store"')],
  ["JSON null", Buffer.from("null")],
  ["an object of another format", Buffer.from('{"cursor:c1": {"value": "abc"}}')],
  ["a store of an unknown version", Buffer.from('{"format":"reward-facts-store","version":2,"entries":{}}')],
  [
    "a store whose entries are an array",
    Buffer.from('{"format":"reward-facts-store","version":1,"entries":[]}'),
  ],
];

describe("opening a corrupt store file", () => {
  it.each(corruptContents)(
    "moves %s aside with its bytes intact, warns, and opens empty",
    async (_name, bytes) => {
      const dataDir = await tempDir();
      const filePath = join(dataDir, STORE_FILE_NAME);
      await writeFile(filePath, bytes);
      const { logger, lines } = captureLogger();
      const now = new Date("2026-03-01T08:30:15.250Z");

      const store = await openStore({ dataDir, logger, now: () => now });

      expect(await store.get("a")).toBeUndefined();
      expect(await store.get("cursor:c1")).toBeUndefined();
      const aside = `${filePath}.corrupt-2026-03-01T08-30-15-250Z`;
      expect(await corruptFilesIn(dataDir)).toEqual([`${STORE_FILE_NAME}.corrupt-2026-03-01T08-30-15-250Z`]);
      expect(await readFile(aside)).toEqual(bytes);
      const warnings = lines.filter((line) => line.level === WARN);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ path: filePath, movedTo: aside });
      // The store file is new (empty) and usable, not the old one overwritten in place.
      expect((await readStoreFile(filePath)).entries).toEqual({});
      await store.set("cursor:c1", "fresh");
      await store.close();
      expect(await readFile(aside)).toEqual(bytes);
    },
  );

  it("never buries an earlier corrupt file under a later one", async () => {
    const dataDir = await tempDir();
    const filePath = join(dataDir, STORE_FILE_NAME);
    const now = () => new Date("2026-03-01T08:30:15.250Z");
    for (const content of ["first garbage", "second garbage"]) {
      await writeFile(filePath, content);
      const store = await openStore({ dataDir, logger: captureLogger().logger, now });
      await store.close();
    }
    const aside = (await corruptFilesIn(dataDir)).sort();
    expect(aside).toHaveLength(2);
    const contents = await Promise.all(aside.map((name) => readFile(join(dataDir, name), "utf8")));
    expect(contents.sort()).toEqual(["first garbage", "second garbage"]);
  });

  it("opens a valid file without warnings or moving anything", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STORE_FILE_NAME), validStore);
    const { logger, lines } = captureLogger();
    const store = await openStore({ dataDir, logger });
    expect(await store.get("a")).toBe(1);
    await store.close();
    expect(lines.filter((line) => line.level >= WARN)).toEqual([]);
    expect(await corruptFilesIn(dataDir)).toEqual([]);
  });

  it("removes temp files left by a killed write, and only those", async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, STORE_FILE_NAME), validStore);
    await writeFile(join(dataDir, `${STORE_FILE_NAME}.3141592653`), validStore.slice(0, 10));
    await writeFile(join(dataDir, `${STORE_FILE_NAME}.corrupt-2026-01-01T00-00-00-000Z`), "kept");
    await writeFile(join(dataDir, "options.json"), "{}");
    const store = await openStore({ dataDir, logger: captureLogger().logger });
    expect(await store.get("a")).toBe(1);
    await store.close();
    expect((await readdir(dataDir)).sort()).toEqual(
      [STORE_FILE_NAME, `${STORE_FILE_NAME}.corrupt-2026-01-01T00-00-00-000Z`, "options.json"].sort(),
    );
  });
});

describe("decodeStoreFile", () => {
  it("reads back a store with a key named like an Object property", () => {
    const text = JSON.stringify({
      format: "reward-facts-store",
      version: 1,
      entries: { ["__proto__"]: { value: 1 }, constructor: { value: 2 } },
    });
    const decoded = decodeStoreFile(text);
    expect(decoded.ok && [...decoded.entries]).toEqual([
      ["__proto__", { value: 1 }],
      ["constructor", { value: 2 }],
    ]);
  });
});
