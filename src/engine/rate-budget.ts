import { sleep } from "./sleep.js";

export interface RateBudgetOptions {
  /** What the API allows a token per minute. */
  limitPerMinute?: number;
  /** Requests kept in reserve below the limit (clock skew, a request the API counts twice). */
  safetyMargin?: number;
  windowMs?: number;
}

/**
 * The one request budget of a token: never more than `limit − margin` requests in any sliding
 * window, across all its children and both base addresses. Every HTTP request takes a slot
 * before it leaves (retries and legacy fallbacks included), because the API counts them all.
 */
export class RateBudget {
  readonly perWindow: number;
  readonly windowMs: number;
  /** Send times of the requests still inside the window, oldest first. */
  readonly #sent: number[] = [];
  #pausedUntil = 0;
  #rateLimitedCount = 0;

  constructor(options: RateBudgetOptions = {}) {
    const limit = options.limitPerMinute ?? 30;
    this.perWindow = Math.max(1, limit - (options.safetyMargin ?? 2));
    this.windowMs = options.windowMs ?? 60_000;
  }

  /** Waits for a free slot (and the end of any pause), then takes it. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const wait = this.waitMs();
      if (wait <= 0) break;
      await sleep(wait, signal);
    }
    signal?.throwIfAborted();
    this.#sent.push(Date.now());
  }

  /** How long until a request may leave; 0 when it may leave now. */
  waitMs(now: number = Date.now()): number {
    this.#forget(now);
    const pause = this.#pausedUntil - now;
    const oldest = this.#sent[0];
    const full =
      this.#sent.length >= this.perWindow && oldest !== undefined ? oldest + this.windowMs - now : 0;
    return Math.max(pause, full, 0);
  }

  /**
   * After a 429: nothing leaves until the API's delay has passed, or, when it gave none, until
   * the whole window has passed since now (the API's window type is not known).
   */
  pauseAfterRateLimit(retryAfterMs: number | undefined, now: number = Date.now()): void {
    this.#rateLimitedCount++;
    this.#pausedUntil = Math.max(this.#pausedUntil, now + (retryAfterMs ?? this.windowMs));
  }

  isPaused(now: number = Date.now()): boolean {
    return this.#pausedUntil > now;
  }

  /** Requests sent in the last window. */
  usedInWindow(now: number = Date.now()): number {
    this.#forget(now);
    return this.#sent.length;
  }

  /** 429 answers received since start. */
  get rateLimitedCount(): number {
    return this.#rateLimitedCount;
  }

  #forget(now: number): void {
    while (this.#sent.length > 0 && (this.#sent[0] as number) <= now - this.windowMs) this.#sent.shift();
  }
}
