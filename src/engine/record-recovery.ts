import type { ReadEventsPage } from "../api/events-page.js";
import type { Logger } from "../log/logger.js";
import type { ApiReader } from "./api-reader.js";
import type { ChildRef, DeliveryRecordReading, Sink } from "./sink.js";
import type { DeliveryLedger } from "./storage.js";

/*
 * A child with no cursor in the data directory (a first start, a data directory deleted or moved
 * aside as unreadable, a cursor that lay in the future) has no record of its own of what reached
 * the destination. Read from the start of the day, the journal would fire again every fact of the
 * day, as news. The destination keeps a record too: Home Assistant's delivery record of the child
 * names the last fact it fired, and when it last changed. The journal is in the order facts were
 * delivered (oldest first, by when the API recorded them), so:
 * - the facts up to the one the record names were delivered: noted as such, never sent again;
 * - the facts after it were not;
 * - a fact recorded after the record last changed was not (it would have changed the record);
 * - the record's fact not found from the start of the day it last changed, before a fact recorded
 *   after that change: it lies earlier, and every fact read was not delivered.
 * What the record cannot settle (a destination that keeps records but cannot read them now, a
 * journal too long to scan) goes marked as possibly repeated, never silently twice.
 */

/** Pages of the journal scanned for the record's fact at most (the budget pays for each). */
export const RECOVERY_SCAN_PAGES = 20;
/** The journal's page size: a full page means more may follow. */
const PAGE_SIZE = 100;

export interface RecoveryContext {
  reader: ApiReader;
  sink: Sink;
  delivered: DeliveryLedger;
  logger: Logger;
  /** The start of the household's day that holds `instant`, ISO 8601 with offset. */
  dayStartOf(instant: number): string;
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
}

/** Where a child without a cursor starts reading, and what of it may have arrived already. */
export interface Recovery {
  /** The `since` to read from. */
  since: string;
  /** Facts recorded at or before this instant (epoch ms) cannot be told: sent marked. */
  uncertainUntil?: number;
}

/** Whether the journal's facts of a child since the first are judged against the destination's record. */
export class RecordRecovery {
  readonly #ctx: RecoveryContext;
  /** Said once a run: the data directory knew nothing of deliveries Home Assistant has. */
  #lossSaid = false;

  constructor(ctx: RecoveryContext) {
    this.#ctx = ctx;
  }

  /**
   * For a child without a cursor: reads the destination's record and, when it names a fact,
   * notes the facts it covers as delivered in the ledger (durably, before anything is sent). When
   * the ledger still knows the child (only the cursor was lost, or never stored: a first page
   * that a crash cut short), the ledger tells which facts arrived, each in doubt resolved by the
   * destination as always: the record only says from which day to read.
   */
  async recover(
    child: ChildRef,
    now: number,
    signal: AbortSignal,
    /** The record names a fact this data directory never handled (`behind`): its ledger is not trusted. */
    known?: DeliveryRecordReading,
  ): Promise<Recovery> {
    const ctx = this.#ctx;
    const today = ctx.dayStartOf(now);
    const reading: DeliveryRecordReading = known ?? (await this.#record(child));
    if (known === undefined && ctx.delivered.knows(child.id)) return { since: this.#sinceOf(reading, now) };
    switch (reading.kind) {
      case "none":
      case "empty":
        return { since: this.#sinceOf(reading, now) };
      case "unknown":
        ctx.logger.warn(
          { child: child.firstName },
          "no delivery state for this child in the data directory, and Home Assistant's record cannot be read: today's facts are sent marked redelivered",
        );
        return { since: today, uncertainUntil: now };
      case "names":
        // Found behind (`known`): the caller has said why already.
        if (known) this.#lossSaid = true;
        return this.#judge(child, reading, now, signal);
    }
  }

  /**
   * The destination's record of the child when it names a fact this data directory never handled
   * (neither sent nor acknowledged): another run delivered it, so this data directory is behind
   * what the destination holds (a copy of it, taken while that run went on). Undefined otherwise.
   */
  async behind(child: ChildRef): Promise<DeliveryRecordReading | undefined> {
    const reading = await this.#record(child);
    if (reading.kind !== "names") return undefined;
    return this.#ctx.delivered.stateOf(child.id, reading.factId) === undefined ? reading : undefined;
  }

  /**
   * The start of the day the record last changed: a bridge down across the household's midnight
   * still owes the facts of the evening before. An empty record made yesterday evening owes them
   * all (nothing was delivered since it was made); one made now, at a first start, owes nothing of
   * the days before. Today when the record says no time.
   */
  #sinceOf(reading: DeliveryRecordReading, now: number): string {
    const changed = reading.kind === "names" || reading.kind === "empty" ? reading.updatedAt : undefined;
    return this.#ctx.dayStartOf(changed === undefined ? now : Math.min(now, changed));
  }

  async #record(child: ChildRef): Promise<DeliveryRecordReading> {
    return (await this.#ctx.sink.readDeliveryRecord?.(child)) ?? { kind: "none" };
  }

  async #judge(
    child: ChildRef,
    record: { factId: string; updatedAt: number },
    now: number,
    signal: AbortSignal,
  ): Promise<Recovery> {
    const ctx = this.#ctx;
    const who = { child: child.firstName };
    if (!this.#lossSaid) {
      this.#lossSaid = true;
      ctx.logger.warn(
        who,
        "the data directory holds no delivery state, but Home Assistant's delivery records show earlier runs (the data directory is new, was deleted or was unreadable): they decide what is sent again",
      );
    }
    const since = this.#sinceOf({ kind: "names", ...record }, now);
    const scan = await this.#scan(child, since, record, signal);
    if (scan.outcome === "found") {
      for (const id of scan.delivered) ctx.delivered.acknowledge(child.id, id);
      ctx.logger.info(
        { ...who, facts: scan.delivered.length },
        "Home Assistant's delivery record names a fact of the journal: the facts up to it are not sent again",
      );
      return { since };
    }
    if (scan.outcome === "before") return { since };
    ctx.logger.warn(
      { ...who, pages: RECOVERY_SCAN_PAGES },
      "the fact Home Assistant's delivery record names was not found in the journal: the facts before the record's last change are sent marked redelivered",
    );
    return { since, uncertainUntil: record.updatedAt };
  }

  /**
   * Reads the journal from `since` (nothing is delivered) until the record's fact, a fact
   * recorded after the record changed, or the end; the ids read up to the record's fact.
   */
  async #scan(
    child: ChildRef,
    since: string,
    record: { factId: string; updatedAt: number },
    signal: AbortSignal,
  ): Promise<{ outcome: "found" | "before" | "unknown"; delivered: string[] }> {
    const ctx = this.#ctx;
    const delivered: string[] = [];
    let from = since;
    for (let page = 0; page < RECOVERY_SCAN_PAGES; page++) {
      const read: ReadEventsPage = await ctx.retry(
        () => ctx.reader.getEvents(child.id, from, signal),
        signal,
      );
      for (const event of read.events) {
        if (Date.parse(event.at) > record.updatedAt) return { outcome: "before", delivered: [] };
        delivered.push(event.id);
        if (event.id === record.factId) return { outcome: "found", delivered };
      }
      const next = read.cursor ?? read.events.at(-1)?.at;
      if (read.received < PAGE_SIZE || next === undefined || next === from)
        return { outcome: "before", delivered: [] };
      from = next;
    }
    return { outcome: "unknown", delivered: [] };
  }
}
