import { StorageError } from "../engine/storage.js";

// One error class per way the store can fail, so that callers decide by kind (report a data
// directory that refuses writes, stop on a failed write) and never by parsing a message.
// Messages carry the file-system path and the OS code only: the store never holds secrets.

export abstract class StoreError extends StorageError {
  abstract readonly kind: string;
  /** The data directory or store file concerned. */
  readonly path: string;
  /** The OS error code (ENOTDIR, EACCES, EROFS, ENOSPC, …) when the failure came from the OS. */
  readonly code: string | undefined;

  constructor(message: string, path: string, code?: string, options?: ErrorOptions) {
    super(`${message}: ${path}${code ? ` (${code})` : ""}`, options);
    this.name = new.target.name;
    this.path = path;
    this.code = code;
  }
}

/** The store could not be opened: data directory not creatable, file not readable, or not writable. */
export class StoreOpenError extends StoreError {
  readonly kind = "open";
}

/** A change could not be made durable; it stays in memory and the next write tries again. */
export class StoreWriteError extends StoreError {
  readonly kind = "write";
}

/** The store was used after `close()`. */
export class StoreClosedError extends StoreError {
  readonly kind = "closed";
}

/** A value that JSON cannot represent (undefined, a function, a BigInt, a cycle). */
export class StoreValueError extends StoreError {
  readonly kind = "value";
  readonly key: string;

  constructor(key: string, path: string, options?: ErrorOptions) {
    super(`value of key "${key}" is not JSON`, path, undefined, options);
    this.key = key;
  }
}

/** The `code` of a Node.js system error, if the thing thrown is one. */
export function osErrorCode(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return error.code;
  }
  return undefined;
}
