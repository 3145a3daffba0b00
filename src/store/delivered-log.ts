import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import type { Logger } from "../log/logger.js";
import { StoreOpenError, StoreWriteError } from "./errors.js";

export interface DeliveredLogOptions {
  dataDir: string;
  logger: Logger;
  /** Ids remembered per child; enough to cover a whole day replayed after a rejected cursor. */
  perChild?: number;
}

export const DELIVERED_LOG_FILE = "delivered-events.log";

/**
 * The ids of the journal facts recently handed to the sink, per child, so that a fact read twice
 * (a crash after delivery but before the cursor was stored, a cursor rejected and replaced by the
 * day's start) is dropped the second time.
 *
 * A claim is written synchronously, with no await between it and the delivery that follows, so a
 * kill -9 cannot fall between the two: each is one `write(2)` appending a line to a log, which the
 * kernel keeps even when the process dies. The log is compacted by an atomic rename.
 * Lines: `+<childId> <eventId>` (delivered) and `-<childId> <eventId>` (claim released).
 */
export class DeliveredLog {
  readonly #path: string;
  readonly #perChild: number;
  readonly #byChild = new Map<string, Set<string>>();
  #fd: number;
  #lines = 0;

  private constructor(path: string, perChild: number, fd: number) {
    this.#path = path;
    this.#perChild = perChild;
    this.#fd = fd;
  }

  /** Opens (or creates) the log in `dataDir`; StoreOpenError when the directory refuses. */
  static open(options: DeliveredLogOptions): DeliveredLog {
    const path = join(options.dataDir, DELIVERED_LOG_FILE);
    const log = new DeliveredLog(path, options.perChild ?? 2_000, -1);
    try {
      mkdirSync(options.dataDir, { recursive: true });
      log.#load(options.logger);
      log.#compact();
    } catch (error) {
      throw new StoreOpenError("the delivered-events log cannot be opened", path, codeOf(error), {
        cause: error,
      });
    }
    return log;
  }

  has(childId: string, eventId: string): boolean {
    return this.#byChild.get(childId)?.has(eventId) ?? false;
  }

  /** Records a fact as delivered; durable against a process kill when it returns. */
  claim(childId: string, eventId: string): void {
    this.#append(`+${childId} ${eventId}\n`);
    this.#remember(childId, eventId);
  }

  /** Takes back a claim whose delivery certainly failed, so the fact is sent again. */
  release(childId: string, eventId: string): void {
    this.#append(`-${childId} ${eventId}\n`);
    this.#byChild.get(childId)?.delete(eventId);
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }

  #append(line: string): void {
    try {
      // Compact before the line, never after: the claim must be the last write before the
      // delivery that follows it, with no fsync-long compaction in between.
      if (this.#lines >= 4 * Math.max(this.#perChild, this.#retained())) this.#compact();
      writeSync(this.#fd, line);
      this.#lines++;
    } catch (error) {
      throw new StoreWriteError("the delivered-events log cannot be written", this.#path, codeOf(error), {
        cause: error,
      });
    }
  }

  #remember(childId: string, eventId: string): void {
    let ids = this.#byChild.get(childId);
    if (!ids) {
      ids = new Set();
      this.#byChild.set(childId, ids);
    }
    ids.delete(eventId);
    ids.add(eventId);
    // A Set iterates in insertion order: the first entries are the oldest.
    while (ids.size > this.#perChild) ids.delete(ids.values().next().value as string);
  }

  #retained(): number {
    let total = 0;
    for (const ids of this.#byChild.values()) total += ids.size;
    return total;
  }

  #load(logger: Logger): void {
    let text: string;
    try {
      text = readFileSync(this.#path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    let unreadable = 0;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const match = /^([+-])(\S+) (\S+)$/.exec(line);
      if (!match) {
        // Only a power cut mid-append leaves a torn line; the fact it named may repeat once.
        unreadable++;
        continue;
      }
      const [, sign, childId, eventId] = match as unknown as [string, string, string, string];
      if (sign === "+") this.#remember(childId, eventId);
      else this.#byChild.get(childId)?.delete(eventId);
    }
    if (unreadable > 0)
      logger.warn({ path: this.#path, unreadable }, "skipped unreadable lines of the delivered-events log");
  }

  /** Rewrites the log with only the remembered ids, atomically, then appends to the new file. */
  #compact(): void {
    let text = "";
    for (const [childId, ids] of this.#byChild) for (const id of ids) text += `+${childId} ${id}\n`;
    if (this.#fd >= 0) closeSync(this.#fd);
    writeFileAtomic.sync(this.#path, text, { fsync: true });
    this.#fd = openSync(this.#path, "a");
    this.#lines = this.#retained();
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
