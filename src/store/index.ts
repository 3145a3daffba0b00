export { StoreClosedError, StoreError, StoreOpenError, StoreValueError, StoreWriteError } from "./errors.js";
export { FileStore, type FileStoreOptions } from "./file-store.js";
export type { JsonValue } from "./json.js";
export { type OpenStoreOptions, openStore, type Store } from "./open-store.js";
export { STORE_FILE_NAME } from "./store-file.js";
