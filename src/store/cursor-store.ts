import type { CursorStore } from "../engine/storage.js";
import type { Store } from "./open-store.js";

const keyOf = (childId: string) => `cursor:${childId}`;

/** The engine's cursors, one key per child in the durable store. */
export function cursorStoreOn(store: Store): CursorStore {
  return {
    get: (childId) => store.get<string>(keyOf(childId)),
    set: (childId, cursor) => store.set(keyOf(childId), cursor),
    delete: async (childId) => {
      await store.delete(keyOf(childId));
    },
  };
}
