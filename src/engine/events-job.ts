import { MalformedSinceError } from "../api/errors.js";
import type { ReadEventsPage } from "../api/events-page.js";
import type { ApiReader } from "./api-reader.js";
import { sameInstant } from "./fact-age.js";
import { deliverFacts, type FactDeliveryContext } from "./fact-delivery.js";
import { RecordRecovery, type Recovery } from "./record-recovery.js";
import type { ChildRef } from "./sink.js";
import type { CursorStore } from "./storage.js";

/** The API's page size: a full page means more may follow at once. */
export const PAGE_SIZE = 100;

export interface EventsJobContext extends FactDeliveryContext {
  reader: ApiReader;
  cursors: CursorStore;
  /** The start of the household's day that holds `instant` (now by default), ISO 8601 with offset. */
  dayStart(instant?: number): string;
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
  /** Children whose rejected cursor was already reported (warn once). */
  cursorRejectedWarned: Set<string>;
  /** Judges a child without a cursor against the sink's record (record-recovery.ts). */
  recovery: RecordRecovery;
  /** What that judgement found per child, for this run. */
  recovered: Map<string, Recovery>;
  /** Children whose stored cursor was checked against the sink's record this run. */
  checkedBehind: Set<string>;
}

/**
 * How far ahead of the bridge's clock a stored cursor may lie before it is taken for damage
 * rather than the API's clock running a little ahead.
 */
export const CURSOR_FUTURE_TOLERANCE_MS = 10 * 60_000;

/** The events context's own parts, built from the rest of it. */
export function eventsJobParts(
  ctx: Omit<EventsJobContext, "recovery" | "recovered" | "cursorRejectedWarned" | "checkedBehind">,
): Pick<EventsJobContext, "recovery" | "recovered" | "cursorRejectedWarned" | "checkedBehind"> {
  return {
    recovery: new RecordRecovery({ ...ctx, dayStartOf: (instant) => ctx.dayStart(instant) }),
    recovered: new Map(),
    cursorRejectedWarned: new Set(),
    checkedBehind: new Set(),
  };
}

export type { DeliveryMoment } from "./fact-delivery.js";

export interface EventsOutcome {
  /** Facts handed to the sink by this run. */
  delivered: number;
  /** Of them, those recent enough not to be marked replayed: what the child is doing now. */
  recent: number;
  /** A full page: more facts may follow at once (the next page is for the next run). */
  more: boolean;
  /** When the earliest of them happened (epoch ms), if any was handed over. */
  firstFactAt?: number;
}

/**
 * Reads a page of a child's journal from its stored cursor and hands each new fact to the sink, in
 * order. The cursor moves only after the sink has acknowledged every fact of the page; a fact read
 * again (after a crash, or a day replayed after a rejected cursor) is dropped by its id once
 * acknowledged, and sent again as "in doubt" when only claimed. One page a run: a long backlog
 * (a first start on a busy day, a bridge stopped for hours) is read a page at a time between the
 * other jobs, rather than holding every other child's reads back until it is all delivered (a
 * fact takes some 5 ms through Home Assistant, in either publishing mode: 100 facts, half a second).
 */
export async function pollEvents(
  ctx: EventsJobContext,
  child: ChildRef,
  signal: AbortSignal,
): Promise<EventsOutcome> {
  const stored = await cursorNotBehind(ctx, child, await usableCursor(ctx, child), signal);
  if (stored === undefined && !ctx.recovered.has(child.id)) {
    ctx.recovered.set(child.id, await ctx.recovery.recover(child, Date.now(), signal));
  }
  const recovered = ctx.recovered.get(child.id);
  let since = stored ?? recovered?.since ?? ctx.dayStart();
  let sinceIsStored = stored !== undefined;
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
      // The ledger knows the day's facts; an earlier judgement's start is stale by now.
      ctx.recovered.delete(child.id);
      since = ctx.dayStart();
      sinceIsStored = false;
      continue;
    }
    const uncertainUntil = recovered?.uncertainUntil;
    const handed = await deliverFacts(ctx, child, child.id, page.events, signal, (fact) =>
      uncertainUntil === undefined ? false : !(Date.parse(fact.at) > uncertainUntil),
    );

    // An empty page may carry no cursor (the spec does not say): keep the one we have. A page of
    // events without one continues from its last instant; the ids drop what comes back.
    const next = page.cursor ?? page.events.at(-1)?.at;
    const moved = next !== undefined && next !== since;
    if (moved) await ctx.cursors.set(child.id, next);
    else if (!sinceIsStored) {
      // No fact yet, and an empty page gives no cursor: the day's start this read began from is
      // kept as the cursor. Taken afresh at every poll, it would move on at midnight, past a fact
      // recorded in the seconds before it and not yet read, which no later poll would return.
      await ctx.cursors.set(child.id, since);
    }
    return {
      delivered: handed.count,
      recent: handed.recent,
      more: page.received >= PAGE_SIZE && moved,
      ...(handed.firstAt === undefined ? {} : { firstFactAt: handed.firstAt }),
    };
  }
}

/**
 * The stored cursor, once a run, unless the sink's record names a fact this data directory never
 * handled: another run delivered from a copy of it meanwhile (moved to another host while the
 * original still ran, a backup restored), and from this cursor those facts would go again. The
 * child is then judged against the record, as after a lost data directory.
 */
async function cursorNotBehind(
  ctx: EventsJobContext,
  child: ChildRef,
  stored: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (stored === undefined || ctx.checkedBehind.has(child.id)) return stored;
  const record = await ctx.recovery.behind(child);
  ctx.checkedBehind.add(child.id);
  if (!record) return stored;
  ctx.logger.warn(
    { child: child.firstName },
    "Home Assistant's delivery record names a fact this data directory never sent (another run of this bridge delivered it): the journal is judged against the record, nothing it holds is sent again",
  );
  await ctx.cursors.delete(child.id);
  ctx.recovered.set(child.id, await ctx.recovery.recover(child, Date.now(), signal, record));
  return undefined;
}

/**
 * The child's stored cursor, unless it lies in the future (on the bridge's clock): damaged, or
 * written under a clock set wrong. Read from there, every fact until then would be skipped without a word; it is dropped
 * instead, and the child read as one without a cursor.
 */
async function usableCursor(ctx: EventsJobContext, child: ChildRef): Promise<string | undefined> {
  const stored = await ctx.cursors.get(child.id);
  if (stored === undefined) return undefined;
  const at = cursorInstant(stored);
  if (at === undefined || (ctx.bridgeTimeOf ?? sameInstant)(at) <= Date.now() + CURSOR_FUTURE_TOLERANCE_MS)
    return stored;
  ctx.logger.warn(
    { child: child.firstName, cursorAt: new Date(at).toISOString() },
    "the stored cursor lies in the future (damaged, or written under a wrong clock): ignored; reading from the start of the household's day",
  );
  await ctx.cursors.delete(child.id);
  ctx.recovered.delete(child.id);
  return undefined;
}

/**
 * When a cursor stands (epoch ms): the API's are `recorded_at,id`, the bridge's own an instant;
 * undefined when it cannot be read as either (it is opaque: then it is trusted).
 */
export function cursorInstant(cursor: string): number | undefined {
  const first = cursor.split(",", 1)[0] ?? "";
  if (!/^\d{4}-\d{2}-\d{2}T/.test(first)) return undefined;
  const at = Date.parse(first);
  return Number.isFinite(at) ? at : undefined;
}
