import { MalformedSinceError } from "../api/errors.js";
import type { ReadEventsPage } from "../api/events-page.js";
import type { Logger } from "../log/logger.js";
import type { ApiReader } from "./api-reader.js";
import { type ChildRef, MaybeDeliveredError, type Sink } from "./sink.js";
import type { CursorStore, DeliveredIds } from "./storage.js";

/** The API's page size: a full page means more may follow at once. */
export const PAGE_SIZE = 100;

export interface EventsJobContext {
  reader: ApiReader;
  sink: Sink;
  cursors: CursorStore;
  delivered: DeliveredIds;
  logger: Logger;
  /** The start of the household's current day, ISO 8601 with offset. */
  dayStart(): string;
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
  /** Children whose rejected cursor was already reported (warn once). */
  cursorRejectedWarned: Set<string>;
}

export interface EventsOutcome {
  /** Facts handed to the sink by this run. */
  delivered: number;
  pages: number;
}

/**
 * Reads a child's journal from its stored cursor and hands each new fact to the sink, in order.
 * The cursor moves only after the sink has acknowledged every fact of the page; a fact read again
 * (after a crash, or a day replayed after a rejected cursor) is dropped by its id.
 */
export async function pollEvents(
  ctx: EventsJobContext,
  child: ChildRef,
  signal: AbortSignal,
): Promise<EventsOutcome> {
  const stored = await ctx.cursors.get(child.id);
  let since = stored ?? ctx.dayStart();
  let sinceIsStored = stored !== undefined;
  const outcome: EventsOutcome = { delivered: 0, pages: 0 };
  for (;;) {
    let page: ReadEventsPage;
    try {
      page = await ctx.retry(() => ctx.reader.getEvents(child.id, since, signal), signal);
    } catch (error) {
      if (!(error instanceof MalformedSinceError) || !sinceIsStored) throw error;
      if (!ctx.cursorRejectedWarned.has(child.id)) {
        ctx.cursorRejectedWarned.add(child.id);
        ctx.logger.warn(
          { child: child.firstName },
          "the API refused the stored cursor; reading again from the start of the day (repeats are dropped)",
        );
      }
      await ctx.cursors.delete(child.id);
      since = ctx.dayStart();
      sinceIsStored = false;
      continue;
    }
    outcome.pages++;
    outcome.delivered += await deliverPage(ctx, child, page, signal);

    // An empty page may carry no cursor (the spec does not say): keep the one we have. A page of
    // events without one continues from its last instant; the ids drop what comes back.
    const next = page.cursor ?? page.events.at(-1)?.at;
    const moved = next !== undefined && next !== since;
    if (moved) {
      await ctx.cursors.set(child.id, next);
      since = next;
      sinceIsStored = true;
    }
    if (page.received < PAGE_SIZE || !moved) return outcome;
  }
}

async function deliverPage(
  ctx: EventsJobContext,
  child: ChildRef,
  page: ReadEventsPage,
  signal: AbortSignal,
) {
  let delivered = 0;
  for (const event of page.events) {
    if (ctx.delivered.has(child.id, event.id)) continue;
    await ctx.sink.whenReady(signal);
    // Claim and send with nothing awaited in between: see Sink.publishEvent.
    ctx.delivered.claim(child.id, event.id);
    try {
      await ctx.sink.publishEvent(child, event);
    } catch (error) {
      if (error instanceof MaybeDeliveredError) {
        ctx.logger.warn(
          { child: child.firstName, event: event.id, type: event.type },
          "a fact was sent but not acknowledged; counted as delivered",
        );
      } else {
        ctx.delivered.release(child.id, event.id);
        throw error;
      }
    }
    delivered++;
  }
  return delivered;
}
