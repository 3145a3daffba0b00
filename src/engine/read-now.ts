/** A child's figures are read again on request at most this often (her Read now button). */
export const READ_NOW_AT_MOST_EVERY_MS = 60_000;

/**
 * What a press of a child's Read now button gets: a reading (`read`), or, within a minute of the
 * last one it got, nothing: `said` the first time (the log says so once), `quiet` after, so a
 * finger on the button neither queues readings nor fills the log.
 */
export type ReadNowAnswer = "read" | "said" | "quiet";

/** The requests to read a child now, and the once-a-minute rule they follow. Pure but for the clock it is given. */
export class ReadNowRequests {
  readonly #last = new Map<string, { at: number; said: boolean }>();

  constructor(readonly everyMs = READ_NOW_AT_MOST_EVERY_MS) {}

  ask(childId: string, now: number): ReadNowAnswer {
    const last = this.#last.get(childId);
    if (!last || now - last.at >= this.everyMs) {
      this.#last.set(childId, { at: now, said: false });
      return "read";
    }
    if (last.said) return "quiet";
    last.said = true;
    return "said";
  }
}
