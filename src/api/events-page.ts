import type { Logger } from "../log/logger.js";
import { type RequestInfo, SchemaMismatchError } from "./errors.js";
import { issuesOf } from "./issues.js";
import { type ApiEvent, apiEventSchema, apiEventTypes, rawEventsPageSchema } from "./schemas.js";

/** A page of the journal as read: the events this client understands, in the API's order. */
export interface ReadEventsPage {
  events: ApiEvent[];
  /** The page's cursor, to pass back as `since`; null when the API gave none (an empty page). */
  cursor: string | null;
  /** How many events the API sent, readable or not (a full page means more may follow). */
  received: number;
  /** Events skipped because their type is unknown or they could not be read. */
  skipped: number;
}

const knownTypes = new Set<string>(apiEventTypes);
// Warn once per unknown type for the life of the process: a new kind of fact is news once,
// then noise on every poll.
const warnedTypes = new Set<string>();

/** Reads an events page; an unknown or unreadable event is skipped alone, never the whole page. */
export function parseEventsPage(body: unknown, info: RequestInfo, logger: Logger): ReadEventsPage {
  const page = rawEventsPageSchema.safeParse(body);
  if (!page.success) throw new SchemaMismatchError(info, issuesOf(page.error), 200);
  const events: ApiEvent[] = [];
  let skipped = 0;
  page.data.events.forEach((raw, index) => {
    const type = (raw as { type?: unknown } | null)?.type;
    if (typeof type === "string" && !knownTypes.has(type)) {
      skipped++;
      if (!warnedTypes.has(type)) {
        warnedTypes.add(type);
        logger.warn({ type }, "skipping events of a type this bridge does not know yet");
      }
      return;
    }
    const parsed = apiEventSchema.safeParse(raw);
    if (!parsed.success) {
      skipped++;
      const id = (raw as { id?: unknown } | null)?.id;
      logger.warn(
        { index, id: typeof id === "string" ? id : undefined, issues: issuesOf(parsed.error) },
        "skipping an unreadable event",
      );
      return;
    }
    events.push(parsed.data);
  });
  return { events, cursor: page.data.cursor ?? null, received: page.data.events.length, skipped };
}
