import { readFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log/logger.js";
import {
  type JsonValue,
  openStore,
  STORE_FILE_NAME,
  StoreClosedError,
  StoreValueError,
} from "../../src/store/index.js";
import { readStoreFile, tempDir } from "./helpers.js";

const logger = silentLogger();

describe("openStore", () => {
  it("starts empty in a missing data dir, creating it with its parents", async () => {
    const dataDir = join(await tempDir(), "a", "b", "data");
    const store = await openStore({ dataDir, logger });
    expect(await store.get("cursor:c1")).toBeUndefined();
    expect(store.path).toBe(join(dataDir, STORE_FILE_NAME));
    // Open writes the (empty) store once, so an unwritable dir fails there.
    expect((await readStoreFile(store.path)).entries).toEqual({});
    await store.close();
  });

  it("keeps many keys across a re-open, and forgets deleted ones", async () => {
    const dataDir = await tempDir();
    const first = await openStore({ dataDir, logger });
    for (let i = 0; i < 300; i++) await first.set(`cursor:child-${i}`, `cursor-${i}`);
    await first.set("delivered:child-1", ["e1", "e2", "e3"]);
    expect(await first.delete("cursor:child-7")).toBe(true);
    expect(await first.delete("cursor:child-7")).toBe(false);
    await first.close();

    const second = await openStore({ dataDir, logger });
    expect(await second.get("cursor:child-0")).toBe("cursor-0");
    expect(await second.get("cursor:child-299")).toBe("cursor-299");
    expect(await second.get("cursor:child-7")).toBeUndefined();
    expect(await second.get("delivered:child-1")).toEqual(["e1", "e2", "e3"]);
    await second.close();
  });

  it.each<[string, JsonValue]>([
    ["a string", "cursor_01JD3XK"],
    ["a string that keyv's serializer would escape", ":base64:aGk="],
    ["a string starting with a colon", ":colon"],
    ["an empty string", ""],
    ["unicode", "Mila — 🏆 Sterne"],
    ["an integer", 42],
    ["a float", -0.125],
    ["zero", 0],
    ["false", false],
    ["null", null],
    ["an empty array", []],
    ["an array of ids", ["evt_1", "evt_2", "evt_3"]],
    ["a nested object", { a: [1, { b: "c", d: null }], e: { f: true } }],
  ])("round-trips %s through memory and a re-open", async (_name, value) => {
    const dataDir = await tempDir();
    const first = await openStore({ dataDir, logger });
    await first.set("key", value);
    expect(await first.get("key")).toEqual(value);
    await first.close();
    const second = await openStore({ dataDir, logger });
    expect(await second.get("key")).toEqual(value);
    await second.close();
  });

  it("keeps keys named like Object properties across a re-open", async () => {
    const dataDir = await tempDir();
    const first = await openStore({ dataDir, logger });
    await first.set("__proto__", "p");
    await first.set("constructor", "c");
    await first.close();
    const second = await openStore({ dataDir, logger });
    expect(await second.get("__proto__")).toBe("p");
    expect(await second.get("constructor")).toBe("c");
    expect(await second.get("toString")).toBeUndefined();
    await second.close();
  });

  it("writes plain JSON values, not strings of JSON", async () => {
    const store = await openStore({ dataDir: await tempDir(), logger });
    await store.set("delivered:c1", ["e1", "e2"]);
    expect((await readStoreFile(store.path)).entries["delivered:c1"]).toEqual({ value: ["e1", "e2"] });
    await store.close();
  });

  it("hands out copies, so mutating a read value does not change the store", async () => {
    const store = await openStore({ dataDir: await tempDir(), logger });
    const ids = ["e1"];
    await store.set("delivered:c1", ids);
    ids.push("mutated after set");
    const read = await store.get<string[]>("delivered:c1");
    read?.push("mutated after get");
    expect(await store.get("delivered:c1")).toEqual(["e1"]);
    await store.close();
  });

  it("has every awaited set on disk when its promise resolves", async () => {
    const store = await openStore({ dataDir: await tempDir(), logger });
    for (let i = 0; i < 30; i++) {
      await store.set("cursor:c1", `cursor-${i}`);
      expect((await readStoreFile(store.path)).entries["cursor:c1"]?.value).toBe(`cursor-${i}`);
    }
    await store.close();
  });

  it("lands 200 concurrent sets, each on disk when it resolves, in a valid file", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir, logger });
    const missingAtResolve: number[] = [];
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        store.set(`key-${i}`, { i, ids: [`e${i}`] }).then(() => {
          // Read synchronously, so that no later write can land between resolve and check.
          const file = JSON.parse(readFileSync(store.path, "utf8")) as { entries: Record<string, unknown> };
          if (!(`key-${i}` in file.entries)) missingAtResolve.push(i);
        }),
      ),
    );
    expect(missingAtResolve).toEqual([]);
    const { entries } = await readStoreFile(store.path);
    expect(Object.keys(entries)).toHaveLength(200);
    expect(entries["key-123"]).toEqual({ value: { i: 123, ids: ["e123"] } });
    await store.close();
    // No temp file of write-file-atomic is left behind.
    expect(await readdir(dataDir)).toEqual([STORE_FILE_NAME]);
  });

  it("flush waits for writes started by sets nobody awaited", async () => {
    const store = await openStore({ dataDir: await tempDir(), logger });
    for (let i = 0; i < 20; i++) void store.set(`k${i}`, i);
    await store.flush();
    expect(Object.keys((await readStoreFile(store.path)).entries)).toHaveLength(20);
    await store.close();
  });

  it("close waits for pending writes, then refuses calls", async () => {
    const dataDir = await tempDir();
    const store = await openStore({ dataDir, logger });
    const pending = store.set("cursor:c1", "last");
    await store.close();
    await pending;
    expect((await readStoreFile(store.path)).entries["cursor:c1"]).toEqual({ value: "last" });
    await expect(store.get("cursor:c1")).rejects.toBeInstanceOf(StoreClosedError);
    await expect(store.set("cursor:c1", "x")).rejects.toBeInstanceOf(StoreClosedError);
  });

  it("refuses a value JSON cannot hold, with the key", async () => {
    const store = await openStore({ dataDir: await tempDir(), logger });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = await store.set("bad", cyclic as unknown as JsonValue).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreValueError);
    expect((error as StoreValueError).key).toBe("bad");
    expect(await store.get("bad")).toBeUndefined();
    await store.close();
  });
});
