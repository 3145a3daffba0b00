import { EventEmitter } from "node:events";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { KeyvStoreAdapter, StoredData } from "keyv";
import type { Logger } from "../log/logger.js";
import { CoalescingWriter } from "./coalescing-writer.js";
import { writeFileDurably } from "./durable-file.js";
import { osErrorCode, StoreClosedError, StoreOpenError, StoreValueError, StoreWriteError } from "./errors.js";
import { type JsonValue, jsonCopy } from "./json.js";
import { loadStoreFile, removeLeftoverTempFiles } from "./load-store-file.js";
import { encodeStoreFile, STORE_FILE_NAME } from "./store-file.js";

export interface FileStoreOptions {
  /** Created (with its parents) when missing. */
  dataDir: string;
  logger: Logger;
  /** Names a moved-aside corrupt file. */
  now?: () => Date;
}

/**
 * A keyv store adapter that keeps every entry in memory and persists them all as one JSON file.
 * `set`, `delete` and `clear` resolve only once a write carrying their change is on disk (file and
 * directory fsynced); reads see the latest change at once, durable or not. It stores whatever keyv
 * hands it as plain JSON, so keyv is best used with its serializer off (see open-store.ts): expiry
 * stays keyv's job, through the `expires` field of the entries it passes in.
 * Errors reject the call (typed, see errors.ts); no "error" event is ever emitted.
 */
export class FileStore extends EventEmitter implements KeyvStoreAdapter {
  /** Keyv reads `opts` of every adapter; nothing in it configures this one. */
  readonly opts: { readonly filePath: string };
  /** Set by keyv; the file holds keys as keyv passes them, prefix included if keyv adds one. */
  namespace?: string | undefined;
  readonly filePath: string;
  readonly #entries: Map<string, JsonValue>;
  readonly #writer: CoalescingWriter;
  #closed = false;

  private constructor(filePath: string, entries: Map<string, JsonValue>) {
    super();
    this.filePath = filePath;
    this.opts = { filePath };
    this.#entries = entries;
    this.#writer = new CoalescingWriter(
      () => encodeStoreFile(this.#entries),
      (data) => writeFileDurably(filePath, data),
    );
  }

  /**
   * Loads `<dataDir>/reward-facts-store.json` (see loadStoreFile for a missing or corrupt one) and
   * writes it back once, so that a data directory refusing writes fails here, with a StoreOpenError,
   * instead of at the first delivered event.
   */
  static async open(options: FileStoreOptions): Promise<FileStore> {
    const { dataDir, logger } = options;
    try {
      await mkdir(dataDir, { recursive: true });
    } catch (error) {
      throw new StoreOpenError("cannot create the data directory", dataDir, osErrorCode(error), {
        cause: error,
      });
    }
    const filePath = join(dataDir, STORE_FILE_NAME);
    await removeLeftoverTempFiles(filePath, logger);
    const entries = await loadStoreFile({ filePath, logger, now: options.now ?? (() => new Date()) });
    const store = new FileStore(filePath, entries);
    try {
      await store.#writer.requestWrite();
    } catch (error) {
      const code = error instanceof StoreWriteError ? error.code : osErrorCode(error);
      throw new StoreOpenError("the data directory refuses writes", filePath, code, { cause: error });
    }
    return store;
  }

  async get<Value>(key: string): Promise<StoredData<Value> | undefined> {
    this.#assertOpen();
    const value = this.#entries.get(key);
    // A copy: a caller mutating what it read must not change memory behind the file's back.
    return value === undefined ? undefined : (structuredClone(value) as StoredData<Value>);
  }

  /** `ttl` is ignored: keyv puts the expiry inside the value and checks it on read. */
  async set(key: string, value: unknown, _ttl?: number): Promise<boolean> {
    this.#assertOpen();
    let copy: JsonValue | undefined;
    try {
      copy = jsonCopy(value);
    } catch (error) {
      throw new StoreValueError(key, this.filePath, { cause: error });
    }
    if (copy === undefined) throw new StoreValueError(key, this.filePath);
    this.#entries.set(key, copy);
    await this.#writer.requestWrite();
    return true;
  }

  async delete(key: string): Promise<boolean> {
    this.#assertOpen();
    if (!this.#entries.delete(key)) {
      // Absent, but maybe only in memory: an earlier delete of it may still be on its way to disk.
      await this.#writer.flush();
      return false;
    }
    await this.#writer.requestWrite();
    return true;
  }

  async clear(): Promise<void> {
    this.#assertOpen();
    this.#entries.clear();
    await this.#writer.requestWrite();
  }

  /**
   * Resolves once every change made so far is durable (writing again if the last write failed);
   * rejects if that cannot be done.
   */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  /** Refuses further calls, then waits for the pending writes (keyv calls this from `disconnect`). */
  async disconnect(): Promise<void> {
    this.#closed = true;
    await this.#writer.flush();
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreClosedError("the store is closed", this.filePath);
  }
}
