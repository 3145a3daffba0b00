import type { SimClock } from "./clock.js";

export type RateWindow = "sliding" | "fixed";

export interface RateLimiterOptions {
  clock: SimClock;
  /** Requests allowed per minute and token (the spec's 30). */
  perMinute: number;
  /** Any 60 s (sliding, the default) or each clock minute (fixed); the spec does not show which. */
  window: RateWindow;
}

export type Admission = { admitted: true } | { admitted: false; retryAfterMs: number };

const MINUTE = 60_000;

/**
 * Counts the requests a token made in the last minute. Only admitted requests count: a client
 * that keeps knocking while limited is refused, but its refusals do not push the window on.
 */
export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #admitted = new Map<string, number[]>();

  constructor(options: RateLimiterOptions) {
    if (!(options.perMinute >= 1))
      throw new RangeError(`perMinute must be at least 1, got ${options.perMinute}`);
    this.#options = options;
  }

  admit(key: string): Admission {
    const now = this.#options.clock.now();
    const windowStart = this.#windowStart(now);
    const recent = (this.#admitted.get(key) ?? []).filter((t) => t >= windowStart && t <= now);
    this.#admitted.set(key, recent);
    if (recent.length < this.#options.perMinute) {
      recent.push(now);
      return { admitted: true };
    }
    // The request that must leave the window before another may enter.
    const oldest = recent[recent.length - this.#options.perMinute] ?? now;
    const freeAt = this.#options.window === "fixed" ? windowStart + MINUTE : oldest + MINUTE;
    return { admitted: false, retryAfterMs: Math.max(0, freeAt - now) };
  }

  /** First instant inside the window that ends now: the current clock minute, or the last 60 s. */
  #windowStart(now: number): number {
    return this.#options.window === "fixed" ? now - mod(now, MINUTE) : now - MINUTE + 1;
  }
}

function mod(value: number, by: number): number {
  return ((value % by) + by) % by;
}
