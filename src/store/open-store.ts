import Keyv from "keyv";
import type { Logger } from "../log/logger.js";
import { StoreClosedError } from "./errors.js";
import { FileStore } from "./file-store.js";
import type { JsonValue } from "./json.js";

export interface OpenStoreOptions {
  /** The add-on's data directory (`/data`); created when missing. */
  dataDir: string;
  logger: Logger;
  /** Names a moved-aside corrupt file; the wall clock by default. */
  now?: () => Date;
}

/**
 * The bridge's durable key-value store. Every promise that changes something resolves only once
 * the change is on disk (fsynced), and a crash at any moment leaves the previous or the new state
 * of the whole store, never a mix. Errors are typed (errors.ts).
 */
export interface Store {
  /** The store file, for log lines. */
  readonly path: string;
  /**
   * The value last set under `key` (durable or still being written), as a fresh copy, or undefined.
   * Not validated: the caller vouches for `T`.
   */
  get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined>;
  /** Resolves once the value is durable; rejects with StoreWriteError (the value stays in memory). */
  set(key: string, value: JsonValue): Promise<void>;
  /** Whether the key existed; resolves once its absence is durable. */
  delete(key: string): Promise<boolean>;
  /** Resolves once every change made so far is durable (shutdown). */
  flush(): Promise<void>;
  /** Refuses further calls (StoreClosedError) and waits for pending writes. */
  close(): Promise<void>;
}

/** Opens the store in `dataDir`; throws StoreOpenError when it cannot be created, read or written. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const fileStore = await FileStore.open(options);
  const keyv = new Keyv<JsonValue>(fileStore, {
    // Values reach the file store as they are and are written as plain JSON, instead of as JSON
    // strings inside JSON: the file stays readable, and keyv's ":"-escaping of strings never applies.
    serialize: undefined,
    deserialize: undefined,
    // Keys in the file are the caller's keys; the file is ours alone, no namespace is needed.
    useKeyPrefix: false,
    // Without this keyv swallows a failed write into `false`; the engine must know.
    throwOnErrors: true,
  });
  return new KeyvStore(keyv, fileStore);
}

class KeyvStore implements Store {
  readonly #keyv: Keyv<JsonValue>;
  readonly #fileStore: FileStore;
  // Keyv awaits its own hooks before it calls the file store, so a change can be on its way
  // without the file store knowing yet: flush and close wait for these first.
  readonly #inProgress = new Set<Promise<unknown>>();
  #closed = false;

  constructor(keyv: Keyv<JsonValue>, fileStore: FileStore) {
    this.#keyv = keyv;
    this.#fileStore = fileStore;
  }

  get path(): string {
    return this.#fileStore.filePath;
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    this.#assertOpen();
    return (await this.#keyv.get(key)) as T | undefined;
  }

  set(key: string, value: JsonValue): Promise<void> {
    return this.#track(async () => {
      await this.#keyv.set(key, value);
    });
  }

  delete(key: string): Promise<boolean> {
    return this.#track(() => this.#keyv.delete(key));
  }

  async flush(): Promise<void> {
    await Promise.allSettled(this.#inProgress);
    await this.#fileStore.flush();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled(this.#inProgress);
    await this.#keyv.disconnect();
  }

  #track<T>(operation: () => Promise<T>): Promise<T> {
    // Checked now, not later: a change asked for before close() is one close() must wait for.
    if (this.#closed) return Promise.reject(this.#closedError());
    const promise = operation();
    this.#inProgress.add(promise);
    const forget = () => this.#inProgress.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  #assertOpen(): void {
    if (this.#closed) throw this.#closedError();
  }

  #closedError(): StoreClosedError {
    return new StoreClosedError("the store is closed", this.#fileStore.filePath);
  }
}
