import { join } from "node:path";
import { isDerived } from "../engine/derived-facts.js";
import { notedAt, type RecentDelivery, type RecentDeliveryHistory } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import { AppendLog } from "./append-log.js";

export interface RecentDeliveryLogOptions {
  dataDir: string;
  /** How far before its latest note a fact still matters (the redelivery window). */
  keepMs: number;
  logger: Logger;
}

export const RECENT_DELIVERY_LOG_FILE = "recent-deliveries.log";
/** Rewrite the file (keeping only what still matters) after this many appended lines. */
const REWRITE_AFTER = 500;
/**
 * At most this many facts kept per child and stream, as in memory (a catch-up can send hundreds a
 * second).
 */
const PER_CHILD_LIMIT = 1_000;

/**
 * The facts sent to Home Assistant lately, with what each said, so that a bridge that died together
 * with Home Assistant can send again what Home Assistant lost (src/ha/delivery/recent-deliveries.ts). One
 * JSON line per change, on disk before the send or acknowledgement that follows it (durable, as the
 * delivered-events log): `{"sent":…}` with the child and the fact, `{"answered":…}` with their
 * ids. Rewritten with only what falls within the window before the latest note, measured from the
 * notes and not from now: a bridge that comes back after an hour still finds the last moments of
 * the run before. A child's facts form two streams, her journal's and those derived from her day
 * (`derived: true`), each checked against a record of its own in Home Assistant: each keeps its
 * own last fact and its own limit.
 */
export class RecentDeliveryLog implements RecentDeliveryHistory {
  readonly #log: AppendLog;
  readonly #keepMs: number;
  /** Keyed by child and fact; a Map keeps the order the facts were first sent in. */
  readonly #entries = new Map<string, RecentDelivery>();

  private constructor(log: AppendLog, keepMs: number) {
    this.#log = log;
    this.#keepMs = keepMs;
  }

  /** Opens (or creates) the log in `dataDir`; StoreOpenError when the directory refuses. */
  static open(options: RecentDeliveryLogOptions): RecentDeliveryLog {
    // A torn line is the one being written when the power went: a fact not sent yet, or one not
    // yet acknowledged in the delivered-events log, which sends it again if Home Assistant lacks it.
    return AppendLog.openFor(
      join(options.dataDir, RECENT_DELIVERY_LOG_FILE),
      "recent-deliveries log",
      options.logger,
      (log) => {
        const history = new RecentDeliveryLog(log, options.keepMs);
        return {
          owner: history,
          replay: (lines) => lines.filter((line) => !history.#replay(line)).length,
          rewrite: () => history.#rewrite(),
        };
      },
      { durable: true },
    );
  }

  load(): RecentDelivery[] {
    return [...this.#entries.values()].map((entry) => ({ ...entry }));
  }

  sent(entry: RecentDelivery): void {
    this.#append(sentLine(entry));
    this.#noteSent(entry);
  }

  answered(childId: string, eventId: string, at: number): void {
    this.#append(answeredLine(childId, eventId, at));
    this.#noteAnswered(childId, eventId, at);
  }

  /** The file keeps them until its next rewrite, which goes by its own notes (#rewrite). */
  forget(before: number): void {
    const kept = sinceOrLast([...this.#entries.values()], before);
    for (const [key, entry] of this.#entries) if (!kept.has(entry)) this.#entries.delete(key);
  }

  close(): void {
    this.#log.close();
  }

  #append(line: string): void {
    if (this.#log.appended >= REWRITE_AFTER) this.#rewrite();
    this.#log.append(line);
  }

  #noteSent(entry: RecentDelivery): void {
    const key = keyOf(entry.child.id, entry.delivery.event.id);
    const known = this.#entries.get(key);
    // Sent again (a redelivery): it keeps its place and its answer.
    this.#entries.set(key, { ...entry, answeredAt: known?.answeredAt ?? entry.answeredAt });
  }

  #noteAnswered(childId: string, eventId: string, at: number): void {
    const known = this.#entries.get(keyOf(childId, eventId));
    // Never noted as sent, nothing to send again from: only a torn line leaves that.
    if (known) known.answeredAt = at;
  }

  /** Applies one line of the file; false when it cannot be read. */
  #replay(line: string): boolean {
    try {
      const note = JSON.parse(line) as {
        sent?: { child?: RecentDelivery["child"]; delivery?: RecentDelivery["delivery"]; sentAt?: unknown };
        answered?: { childId?: unknown; eventId?: unknown; at?: unknown };
      };
      const sent = note.sent;
      if (sent?.child?.id && sent.delivery?.event?.id && typeof sent.sentAt === "number") {
        this.#noteSent({
          child: sent.child,
          delivery: sent.delivery,
          sentAt: sent.sentAt,
          answeredAt: undefined,
        });
        return true;
      }
      const answered = note.answered;
      if (
        typeof answered?.childId === "string" &&
        typeof answered.eventId === "string" &&
        typeof answered.at === "number"
      ) {
        this.#noteAnswered(answered.childId, answered.eventId, answered.at);
        return true;
      }
      return false;
    } catch {
      return false;
    }
  }

  /**
   * Keeps, per child and stream, its last fact and those noted within keepMs of the latest note, in
   * order.
   */
  #rewrite(): void {
    const entries = [...this.#entries.values()];
    const latest = entries.reduce((max, entry) => Math.max(max, notedAt(entry)), Number.NEGATIVE_INFINITY);
    const since = sinceOrLast(entries, latest - this.#keepMs);
    const kept = entries.filter((entry) => since.has(entry));
    // The newest PER_CHILD_LIMIT of each child's stream: the older ones beyond are skipped, in order.
    const beyondLimit = new Map<string, number>();
    for (const entry of kept) {
      const stream = streamKeyOf(entry);
      beyondLimit.set(stream, (beyondLimit.get(stream) ?? -PER_CHILD_LIMIT) + 1);
    }
    this.#entries.clear();
    const lines: string[] = [];
    for (const entry of kept) {
      const stream = streamKeyOf(entry);
      const skip = beyondLimit.get(stream) ?? 0;
      if (skip > 0) {
        beyondLimit.set(stream, skip - 1);
        continue;
      }
      this.#entries.set(keyOf(entry.child.id, entry.delivery.event.id), entry);
      lines.push(sentLine(entry));
      if (entry.answeredAt !== undefined)
        lines.push(answeredLine(entry.child.id, entry.delivery.event.id, entry.answeredAt));
    }
    this.#log.rewrite(lines);
  }
}

/**
 * Of `entries` (all children's, in order), those noted since `before` and the last of each child's
 * stream (its record may name it).
 */
function sinceOrLast(entries: readonly RecentDelivery[], before: number): Set<RecentDelivery> {
  const lastOf = new Map(entries.map((entry) => [streamKeyOf(entry), entry]));
  return new Set(
    entries.filter((entry) => entry === lastOf.get(streamKeyOf(entry)) || notedAt(entry) >= before),
  );
}

/** The child's stream an entry belongs to: her journal's, or her derived facts'. */
function streamKeyOf({ child, delivery }: RecentDelivery): string {
  return `${child.id}\u0000${isDerived(delivery.event) ? "derived" : "journal"}`;
}

function sentLine({ child, delivery, sentAt }: RecentDelivery): string {
  return JSON.stringify({ sent: { child, delivery, sentAt } });
}

function answeredLine(childId: string, eventId: string, at: number): string {
  return JSON.stringify({ answered: { childId, eventId, at } });
}

function keyOf(childId: string, eventId: string): string {
  return `${childId}\u0000${eventId}`;
}
