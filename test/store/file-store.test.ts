import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/log/logger.js";
import { StoreClosedError } from "../../src/store/errors.js";
import { FileStore } from "../../src/store/file-store.js";
import { readStoreFile, tempDir } from "./helpers.js";

// The keyv adapter under openStore, through the part of keyv's contract that the Store face does
// not show (open-store.test.ts covers the rest): clearing every entry, durably.

const logger = silentLogger();

describe("FileStore", () => {
  it("clears every entry, on disk once clear resolves, and a store opened again finds none", async () => {
    const dataDir = await tempDir();
    const store = await FileStore.open({ dataDir, logger });
    await store.set("cursor:c1", { value: "abc" });
    await store.set("instance_id", { value: "i-1" });

    await store.clear();
    expect((await readStoreFile(store.filePath)).entries).toEqual({});
    expect(await store.get("cursor:c1")).toBeUndefined();
    await store.disconnect();

    const again = await FileStore.open({ dataDir, logger });
    expect(await again.get("instance_id")).toBeUndefined();
    await again.disconnect();
  });

  it("refuses a clear once disconnected", async () => {
    const store = await FileStore.open({ dataDir: await tempDir(), logger });
    await store.disconnect();
    await expect(store.clear()).rejects.toBeInstanceOf(StoreClosedError);
  });
});
