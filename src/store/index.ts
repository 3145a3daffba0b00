// The data directory, as the rest of the house sees it, and all it may import of this folder.
//
// Shown: the keyed store (openStore, Store) and what is kept in it, each value checked as it is read
// back (the cursors, the derived facts, the bridge's identity and memories); the append-only logs that
// implement the engine's and the sink's storage ports (engine/storage.ts): delivered facts, API
// requests, recent deliveries; the errors a data directory can raise; the store file's name (tests
// look for it). Withheld: how the files are made durable (the keyv adapter, the coalescing writer,
// the append log, the atomic rewrite): one way in, openStore or a log's open.
export {
  assistMemoryOn,
  bridgeIdentityOn,
  diaryMemoryOn,
  type Memory,
  slugMemoryOn,
  weekMemoryOn,
} from "./bridge-memories.js";
export { cursorStoreOn } from "./cursor-store.js";
export { DeliveredLog } from "./delivered-log.js";
export { derivedStoreOn } from "./derived-store.js";
export { StoreClosedError, StoreError, StoreOpenError, StoreValueError, StoreWriteError } from "./errors.js";
export { forgetHomeAssistant } from "./forget-home-assistant.js";
export type { JsonValue } from "./json.js";
export { type OpenStoreOptions, openStore, type Store } from "./open-store.js";
export { RecentDeliveryLog } from "./recent-delivery-log.js";
export { RequestLog } from "./request-log.js";
export { STORE_FILE_NAME } from "./store-file.js";
