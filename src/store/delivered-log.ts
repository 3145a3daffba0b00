import { join } from "node:path";
import type { DeliveryLedger, DeliveryState } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import { AppendLog } from "./append-log.js";

export interface DeliveredLogOptions {
  dataDir: string;
  logger: Logger;
  /** Facts remembered per child; enough to cover a whole day replayed after a rejected cursor. */
  perChild?: number;
}

export const DELIVERED_LOG_FILE = "delivered-events.log";
const HEADER = "#delivered-events v2";

/**
 * Where each recent journal fact stands with the sink, per child: claimed (in doubt) just before
 * it is sent, acknowledged once the sink took it. A fact read again (after a crash, or a day
 * replayed after a rejected cursor) is dropped when acknowledged, and sent again as "in doubt"
 * when it was claimed only: the sink then asks its own record whether it arrived.
 *
 * Every change is one appended line, on disk before `claim` (or any note) returns (a durable
 * AppendLog): neither a kill -9 nor a power cut loses the claim of a fact that was then sent, which
 * would send it again unchecked. Lines:
 * `+<child> <event>` claimed, `=<child> <event>[ <receipt>]` acknowledged, `-<child> <event>`
 * released, `@<child> <receipt>` the child's last receipt (after a rewrite). Files written before
 * version 2 have no header, and their `+` lines meant "delivered".
 */
export class DeliveredLog implements DeliveryLedger {
  readonly #log: AppendLog;
  readonly #perChild: number;
  readonly #byChild = new Map<string, Map<string, DeliveryState>>();
  readonly #receipts = new Map<string, string>();

  private constructor(log: AppendLog, perChild: number) {
    this.#log = log;
    this.#perChild = perChild;
  }

  /** Opens (or creates) the log in `dataDir`; StoreOpenError when the directory refuses. */
  static open(options: DeliveredLogOptions): DeliveredLog {
    // A torn line is the one being written when the power went, before the send or the
    // acknowledgement it notes; left out, its fact is still in doubt or not yet sent.
    return AppendLog.openFor(
      join(options.dataDir, DELIVERED_LOG_FILE),
      "delivered-events log",
      options.logger,
      (log) => {
        const ledger = new DeliveredLog(log, options.perChild ?? 2_000);
        return { owner: ledger, replay: (lines) => ledger.#load(lines), rewrite: () => ledger.#rewrite() };
      },
      { durable: true },
    );
  }

  stateOf(childId: string, eventId: string): DeliveryState | undefined {
    return this.#byChild.get(childId)?.get(eventId);
  }

  claim(childId: string, eventId: string): void {
    this.#append(`+${childId} ${eventId}`);
    this.#set(childId, eventId, "in_doubt");
  }

  acknowledge(childId: string, eventId: string, receipt?: string): void {
    this.#append(`=${childId} ${eventId}${receipt ? ` ${receipt}` : ""}`);
    this.#set(childId, eventId, "acknowledged");
    if (receipt) this.#receipts.set(childId, receipt);
  }

  release(childId: string, eventId: string): void {
    this.#append(`-${childId} ${eventId}`);
    this.#byChild.get(childId)?.delete(eventId);
  }

  receiptOf(childId: string): string | undefined {
    return this.#receipts.get(childId);
  }

  knows(childId: string): boolean {
    return (this.#byChild.get(childId)?.size ?? 0) > 0 || this.#receipts.has(childId);
  }

  close(): void {
    this.#log.close();
  }

  #append(line: string): void {
    // Rewrite before the line, never after: a claim must be the last write before the send that
    // follows it, with no fsync-long rewrite in between.
    if (this.#log.appended >= 4 * Math.max(this.#perChild, this.#retained())) this.#rewrite();
    this.#log.append(line);
  }

  #set(childId: string, eventId: string, state: DeliveryState): void {
    let facts = this.#byChild.get(childId);
    if (!facts) {
      facts = new Map();
      this.#byChild.set(childId, facts);
    }
    facts.delete(eventId);
    facts.set(eventId, state);
    // A Map iterates in insertion order: the first entries are the oldest.
    while (facts.size > this.#perChild) facts.delete(facts.keys().next().value as string);
  }

  #retained(): number {
    let total = 0;
    for (const facts of this.#byChild.values()) total += facts.size;
    return total;
  }

  /** Replays the lines of the file; returns how many could not be read. */
  #load(lines: readonly string[]): number {
    const legacy = lines[0] !== HEADER;
    let unreadable = 0;
    for (const line of legacy ? lines : lines.slice(1)) {
      const match = /^([+=@-])(\S+) (\S+)(?: (\S+))?$/.exec(line);
      if (!match) {
        unreadable++;
        continue;
      }
      const [, sign, childId, second, receipt] = match as unknown as [
        string,
        string,
        string,
        string,
        string?,
      ];
      if (sign === "@") this.#receipts.set(childId, second);
      else if (sign === "-") this.#byChild.get(childId)?.delete(second);
      else if (sign === "+") this.#set(childId, second, legacy ? "acknowledged" : "in_doubt");
      else {
        this.#set(childId, second, "acknowledged");
        if (receipt) this.#receipts.set(childId, receipt);
      }
    }
    return unreadable;
  }

  /** Rewrites the file with only what is remembered (the version-2 format). */
  #rewrite(): void {
    const lines = [HEADER];
    for (const [childId, facts] of this.#byChild) {
      for (const [eventId, state] of facts)
        lines.push(`${state === "in_doubt" ? "+" : "="}${childId} ${eventId}`);
    }
    for (const [childId, receipt] of this.#receipts) lines.push(`@${childId} ${receipt}`);
    this.#log.rewrite(lines);
  }
}
