import type { Logger } from "../log/logger.js";
import * as z from "../zod.js";
import type { JsonValue } from "./json.js";
import type { Store } from "./open-store.js";

/*
 * A value read back from the data directory is checked as the API's answers are: a file edited by
 * hand, restored from another version or damaged on disk must not stop the bridge, nor pass for
 * what it is not (a cursor that is no text failed every poll of every child). A value that does
 * not fit is set aside, said once, and the bridge goes on as without it: each caller says what
 * takes its place (Home Assistant's delivery records for a cursor, a new identity for an id).
 */

export interface KeptValue<T> {
  /** The value, or undefined when there is none or it did not fit (then said, and removed). */
  get(): Promise<T | undefined>;
  set(value: T): Promise<void>;
}

/**
 * The value under `key`, checked against `schema`. `what` names it for a person ("Léa's cursor")
 * and `instead` says what the bridge does without it.
 */
export function keptValue<T extends JsonValue>(
  store: Store,
  key: string,
  schema: z.ZodMiniType<T>,
  logger: Logger,
  words: { what: string; instead: string },
): KeptValue<T> {
  return {
    get: async () => {
      const value = await store.get(key);
      if (value === undefined) return undefined;
      const checked = z.safeParse(schema, value);
      if (checked.success) return checked.data;
      logger.warn(
        { key, problem: z.prettifyError(checked.error).split("\n")[0] },
        `${words.what} in the data directory is damaged and is set aside: ${words.instead}`,
      );
      await store.delete(key);
      return undefined;
    },
    set: (value) => store.set(key, value),
  };
}
