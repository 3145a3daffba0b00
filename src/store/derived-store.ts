import type { DerivedFactsStore, DerivedRecord } from "../engine/storage.js";
import type { JsonValue } from "./json.js";
import type { Store } from "./open-store.js";

const keyOf = (childId: string) => `derived:${childId}`;

/** The engine's derivation state and pending derived facts, one key per child in the durable store. */
export function derivedStoreOn(store: Store): DerivedFactsStore {
  return {
    get: (childId) => store.get(keyOf(childId)) as Promise<DerivedRecord | undefined>,
    set: (childId, record) => store.set(keyOf(childId), record as unknown as JsonValue),
  };
}
