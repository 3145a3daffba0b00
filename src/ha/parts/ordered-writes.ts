import type { Logger } from "../../log/logger.js";

/**
 * A part's writes to Home Assistant, one after another, never awaited by what asked for them (a
 * fact's delivery, a child's reading): a state is never overtaken by an older one, and a failure
 * is logged, not thrown (Home Assistant away: its return writes everything again).
 */
export class OrderedWrites {
  #last: Promise<void> = Promise.resolve();

  constructor(
    private readonly logger: Logger,
    /** What could not be written, for the log line: "the latest facts". */
    private readonly what: string,
  ) {}

  add(step: () => Promise<unknown>): void {
    this.#last = this.#last
      .then(step)
      .then(() => {})
      .catch((error: unknown) => {
        this.logger.debug({ err: (error as Error).message }, `${this.what} could not be written yet`);
      });
  }

  /** Once every write asked for so far has ended. */
  settled(): Promise<void> {
    return this.#last;
  }
}
