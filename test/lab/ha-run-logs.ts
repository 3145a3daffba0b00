import { existsSync, renameSync } from "node:fs";
import { readFile } from "node:fs/promises";

/*
 * Home Assistant starts a new log file at every start and keeps only the previous run's (renamed
 * `.1`). Tests need the whole story of an instance across its restarts (the event log reads it),
 * so the harness moves each run's log aside before the next start: `ha.log.run-1`, `-2`, ….
 */
export class RunLogs {
  #archived = 0;

  constructor(readonly current: string) {}

  /** Before a start: the previous run's log goes aside (synchronous, see readAll). */
  archivePrevious(): void {
    if (!existsSync(this.current)) return;
    renameSync(this.current, `${this.current}.run-${this.#archived + 1}`);
    this.#archived++;
  }

  /** Every run's log, oldest first. */
  async readAll(): Promise<string> {
    for (;;) {
      const archived = this.#archived;
      const paths = Array.from({ length: archived }, (_, i) => `${this.current}.run-${i + 1}`);
      const texts = await Promise.all(
        [...paths, this.current].map((path) => readFile(path, "utf8").catch(() => "")),
      );
      // A start in the middle of the reads moved the current file: read again.
      if (archived === this.#archived)
        return texts.map((text) => (text === "" || text.endsWith("\n") ? text : `${text}\n`)).join("");
    }
  }
}
