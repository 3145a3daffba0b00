export { cursorStoreOn } from "./cursor-store.js";
export { DeliveredLog } from "./delivered-log.js";
export { StoreClosedError, StoreError, StoreOpenError, StoreValueError, StoreWriteError } from "./errors.js";
export { FileStore, type FileStoreOptions } from "./file-store.js";
export type { JsonValue } from "./json.js";
export { type OpenStoreOptions, openStore, type Store } from "./open-store.js";
export { RecentDeliveryLog } from "./recent-delivery-log.js";
export { RequestLog } from "./request-log.js";
export { STORE_FILE_NAME } from "./store-file.js";
