import type { CursorStore } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import * as z from "../zod.js";
import { keptValue } from "./kept-value.js";
import type { Store } from "./open-store.js";

const keyOf = (childId: string) => `cursor:${childId}`;

/**
 * A cursor as the API gives it (`recorded_at,id`, opaque) or an instant: a line of text. The
 * engine judges what it says (one in the future, say); this only keeps out what is no cursor.
 */
const cursorSchema = z.string().check(z.minLength(1), z.maxLength(1_000), z.regex(/^\S+$/));

/**
 * The engine's cursors, one key per child in the durable store. A damaged one is set aside: the
 * child then goes on from Home Assistant's delivery record, as after a lost data directory.
 */
export function cursorStoreOn(store: Store, logger: Logger): CursorStore {
  const cursorOf = (childId: string) =>
    keptValue(store, keyOf(childId), cursorSchema, logger, {
      what: "a child's journal cursor",
      instead: "her journal is judged against Home Assistant's delivery record",
    });
  return {
    get: (childId) => cursorOf(childId).get(),
    set: (childId, cursor) => cursorOf(childId).set(cursor),
    delete: async (childId) => {
      await store.delete(keyOf(childId));
    },
  };
}
