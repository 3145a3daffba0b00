import { backoffMs, LISTING_BACKOFF } from "./backoff.js";
import { jittered } from "./cadence.js";

/**
 * How often the token's children are listed unless the engine is told otherwise: a child added or
 * renamed in the app is seen within it. Every 5 minutes (it was 15) costs 0.2 requests a minute,
 * counted in the demand the intervals stretch to (cadence.ts).
 */
export const DISCOVERY_INTERVAL_MS = 5 * 60_000;

export interface ListingScheduleOptions {
  /** How often the children are listed while it goes through. */
  intervalMs: number;
  /** Fraction of a retry's wait by which it moves at random. */
  jitter: number;
  random: () => number;
}

/**
 * When the token's children are listed next: every `intervalMs` (a child added or renamed in the
 * app is seen within it), and, when a listing fails, again after LISTING_BACKOFF's waits until one
 * goes through.
 */
export class ListingSchedule {
  readonly #o: ListingScheduleOptions;
  #due = 0;
  #failures = 0;

  constructor(options: ListingScheduleOptions) {
    this.#o = options;
  }

  /** When the next listing is due (0 at the start: at once). */
  get due(): number {
    return this.#due;
  }

  /** A listing failed, whatever the failure (a 503, a 429, a bug): the next after a backoff. */
  failed(now: number): void {
    this.#failures++;
    const wait = backoffMs(this.#failures, LISTING_BACKOFF);
    this.#due = now + jittered(wait, this.#o.jitter, this.#o.random);
  }

  /**
   * A child's read was refused (403): the list is read at once, to tell a child who left the
   * household (gone from it) from a refusal that may pass (still listed).
   */
  soon(now: number): void {
    this.#due = Math.min(this.#due, now);
  }

  /** The listing went through: the next one an interval from now. */
  listed(now: number): void {
    this.#failures = 0;
    this.#due = now + this.#o.intervalMs;
  }
}
