import { closeSync, fdatasyncSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Logger } from "../log/logger.js";
import { replaceFileDurablySync } from "./durable-file.js";
import { osErrorCode, StoreError, StoreOpenError, StoreWriteError } from "./errors.js";

/** What owns a log's lines: it reads them back when the log opens, and rewrites it as it wants. */
export interface LogOwner<T> {
  owner: T;
  /** Applies the lines found in the file; returns how many could not be read. */
  replay(lines: readonly string[]): number;
  /** Rewrites the file with what still matters (AppendLog.rewrite). */
  rewrite(): void;
}

export interface AppendLogOptions {
  /**
   * Each line forced to disk (fdatasync) before `append` returns, so that it survives a power cut
   * as well: for the notes a send depends on, a few per fact. Without it a line survives a kill
   * only, which suits a log written at every API request (no disk flush 28 times a minute).
   */
  durable?: boolean;
}

/**
 * A file of lines, each appended with one `write(2)`: once `append` returns, the line survives a
 * kill -9 of the process (the kernel holds it), and a power cut too when the log is durable. A
 * power cut can lose the last lines of a log that is not, or tear the line being written, which
 * `open` reports. When the file has grown, the owner rewrites it with what still matters,
 * atomically and durably (the new file and its name).
 */
export class AppendLog {
  readonly path: string;
  readonly #durable: boolean;
  #fd: number;
  /** Lines appended since the file was last rewritten (or opened). */
  #appended = 0;

  private constructor(path: string, fd: number, durable: boolean) {
    this.path = path;
    this.#fd = fd;
    this.#durable = durable;
  }

  /**
   * Opens (or creates) the log and returns it with the lines already in it; a line cut short by a
   * power cut (no final newline) is left out and counted. StoreOpenError when the directory refuses.
   */
  static open(
    path: string,
    what: string,
    options: AppendLogOptions = {},
  ): { log: AppendLog; lines: string[]; torn: number } {
    try {
      mkdirSync(dirname(path), { recursive: true });
      let text = "";
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if (osErrorCode(error) !== "ENOENT") throw error;
      }
      const lines = text.split("\n");
      // The text after the last newline is either empty or a torn line.
      const tail = lines.pop() ?? "";
      const log = new AppendLog(path, openSync(path, "a"), options.durable ?? false);
      return { log, lines: lines.filter((line) => line !== ""), torn: tail === "" ? 0 : 1 };
    } catch (error) {
      throw new StoreOpenError(`the ${what} cannot be opened`, path, osErrorCode(error), { cause: error });
    }
  }

  /**
   * Opens the log at `path` for the owner `make` builds on it: the lines found are replayed into
   * it, those that cannot be read (a torn last line after a power cut, say) logged once, and the
   * file rewritten with what still matters. StoreOpenError when the directory refuses.
   */
  static openFor<T>(
    path: string,
    what: string,
    logger: Logger,
    make: (log: AppendLog) => LogOwner<T>,
    options: AppendLogOptions = {},
  ): T {
    const opened = AppendLog.open(path, what, options);
    const made = make(opened.log);
    const unreadable = made.replay(opened.lines) + opened.torn;
    if (unreadable > 0) logger.warn({ path, unreadable }, `skipped unreadable lines of the ${what}`);
    try {
      made.rewrite();
    } catch (error) {
      opened.log.close();
      const code = error instanceof StoreError ? error.code : undefined;
      throw new StoreOpenError(`the ${what} cannot be written`, path, code, { cause: error });
    }
    return made.owner;
  }

  get appended(): number {
    return this.#appended;
  }

  /** Appends one line (without its newline); StoreWriteError when the file refuses. */
  append(line: string): void {
    try {
      writeSync(this.#fd, `${line}\n`);
      if (this.#durable) fdatasyncSync(this.#fd);
      this.#appended++;
    } catch (error) {
      throw new StoreWriteError("cannot append to the log", this.path, osErrorCode(error), { cause: error });
    }
  }

  /** Replaces the whole file with `lines`, atomically and durably, then appends to the new file. */
  rewrite(lines: readonly string[]): void {
    try {
      const text = lines.map((line) => `${line}\n`).join("");
      if (this.#fd >= 0) closeSync(this.#fd);
      this.#fd = -1;
      // The folder synced too: else a power cut could bring the old file back, and with it lose
      // the lines appended to the new one.
      replaceFileDurablySync(this.path, text);
      this.#fd = openSync(this.path, "a");
      this.#appended = 0;
    } catch (error) {
      throw new StoreWriteError("cannot rewrite the log", this.path, osErrorCode(error), { cause: error });
    }
  }

  close(): void {
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }
}
