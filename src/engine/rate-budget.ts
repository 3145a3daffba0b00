import { MAX_PAUSE_MS } from "../api/limits.js";
import type { Logger } from "../log/logger.js";
import { sleep } from "../time/sleep.js";
import type { RequestHistory, RequestRecord, StoredRequests, TokenShare } from "./storage.js";
import { checkStoredHistory, reportIgnored } from "./stored-budget.js";

export interface RateBudgetOptions {
  /** What the API allows a token per minute. */
  limitPerMinute?: number;
  /** Requests kept in reserve below the limit (clock skew, a request the API counts twice). */
  safetyMargin?: number;
  windowMs?: number;
  /** Where the requests are kept across restarts; in memory only without it. */
  history?: RequestHistory;
  /** Jitter of the pause after a 429 (tests give a seeded one). */
  random?: () => number;
  /** Where the budget says what of its stored history it ignored (out of range). */
  logger?: Logger;
}

/** The least the budget lowers itself to after 429s: the bridge must still read something. */
const MIN_ALLOWANCE = 4;
/**
 * What the bridge leaves the other client beyond what fitted at the 429, as it keeps 2 below the
 * API's own limit: the other's minute is not exact either. Home Assistant's `rest` scans send
 * their 20 requests within 0.4 s every 60 s, and at the window's edge 21 to 23 of them fall within
 * one 60 s. A bridge that kept to the 10 that had fitted got 3 of them refused in four minutes
 * (bench dump, 2026-11-24); with a margin of 2 it kept to 8, and the token once admitted 22 of
 * rest's and those 8 in one 60 s, then refused rest's 23rd (bench of 2026-11-25 11:39 UTC). With 3,
 * 23 of the other's fit beside the bridge's 7.
 */
const OTHER_CLIENT_MARGIN = 3;
/** Once the share has held, the allowance grows one request this often. */
const INCREASE_EVERY_MS = 2 * 60_000;
/**
 * How long the share the token left at a first 429 holds: the allowance grows past it only after
 * this long without a 429. The other client's refusals are not the bridge's to see: side by side
 * with `rest` sensors, whose 20 requests come in one burst a minute, a bridge that spread its
 * requests evenly and grew one request every two calm minutes took the last of those 20: ten 429s
 * for `rest` in four minutes, none for the bridge (bench dump, 2026-11-24). So the bridge takes no
 * more than its share until the other client has had time to go; then one request more at a
 * time, each a probe that a refusal ends.
 */
export const SHARE_HOLDS_MS = 30 * 60_000;
/**
 * The longest a share holds. A try for more that a 429 ends shows the other client is still there,
 * and each try can cost it a few requests before a refusal falls on the bridge's own (3 each in
 * the fake-clock case of a `rest`-like client whose busiest minute is above its usual one, a try
 * every 36 minutes): so each such try doubles the hold, up to this. Once the bridge has had the
 * whole token back (the other client gone), the next 429 starts again from SHARE_HOLDS_MS. Four
 * hours: a bridge whose other client has gone waits at most that long before it takes the token
 * back, and a client that stays loses a few requests every four hours rather than every half hour.
 */
export const LONGEST_HOLD_MS = 4 * 60 * 60_000;
/**
 * While the token is shared, requests leave about window ÷ allowance apart, each gap drawn within
 * ±this fraction. Spread, so that a window never holds a burst (the slots a burst takes free
 * together one window later, and the burst repeats, every minute: a busy child's journal, however
 * often due, was read once a minute). Jittered, so that the bridge's count in a window rises and
 * falls: when a probe takes more than the other client leaves, the refusal can then fall on one of
 * the bridge's own requests, not always on the other client's burst, and the bridge hears of it.
 */
export const PACING_JITTER = 0.25;
/** How long a share holds (SHARE_HOLDS_MS for one written before holds grew). */
function holdOf(share: TokenShare): number {
  return share.holdMs ?? SHARE_HOLDS_MS;
}

/** The first pause after a 429 without Retry-After; doubled for each 429 in a row, up to the window. */
const FIRST_PAUSE_MS = 5_000;

/** A request recorded without its answer was in flight when the process died: it reached the API
 * by this long after it left, at the latest, as far as the window is concerned. */
const IN_FLIGHT_AT_CRASH_MS = 5_000;

/**
 * The one request budget of a token: never more than `limit − margin` requests in any window,
 * across all its children and both base addresses. Every HTTP request takes a slot before it
 * leaves (retries and legacy fallbacks included), because the API counts them all.
 *
 * A slot frees one window after the request's answer, not after its departure: the API counts a
 * request when it arrives, which can be later than when it left, so counting from the answer
 * keeps the API's own window within the budget too. The requests are kept in a history so that a
 * bridge restarted within the window (a crash loop) still counts what it sent.
 */
export class RateBudget {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly #history: RequestHistory | undefined;
  readonly #requests: RequestRecord[] = [];
  readonly #random: () => number;
  #pausedUntil = 0;
  #rateLimitedCount = 0;
  #lastSentAt = 0;
  /** What the last 429 showed the token leaves the bridge; none while it has the token alone. */
  #share: TokenShare | undefined;
  /** The next pacing gap, as a fraction of window ÷ allowance (drawn once per request). */
  #gapFactor = 1;
  /** 429s in a row, each within a window of the one before. */
  #streak = 0;

  constructor(options: RateBudgetOptions = {}) {
    const limit = options.limitPerMinute ?? 30;
    this.perWindow = Math.max(1, limit - (options.safetyMargin ?? 2));
    this.windowMs = options.windowMs ?? 60_000;
    this.#history = options.history;
    this.#random = options.random ?? Math.random;
    if (this.#history) {
      const now = Date.now();
      const loaded = this.#checked(this.#history, now, options.logger);
      for (const request of loaded.requests) {
        // Its answer never came in the process that sent it: count it as if it came a little later.
        this.#requests.push({
          sentAt: request.sentAt,
          settledAt: request.settledAt ?? request.sentAt + IN_FLIGHT_AT_CRASH_MS,
        });
        this.#lastSentAt = Math.max(this.#lastSentAt, request.sentAt);
      }
      this.#pausedUntil = loaded.pausedUntil;
      // A restarted bridge keeps to the share: the other client is still there.
      this.#share = loaded.share;
      this.#forget(now);
    }
  }

  /**
   * The stored history, less what lies out of what this budget can produce (stored-budget.ts):
   * one line for each kind ignored, and the history rewritten without it.
   */
  #checked(history: RequestHistory, now: number, logger: Logger | undefined): StoredRequests {
    const stored = history.load();
    const checked = checkStoredHistory(stored, {
      now,
      maxPauseMs: MAX_PAUSE_MS,
      minAllowance: MIN_ALLOWANCE,
      maxAllowance: Math.max(MIN_ALLOWANCE, this.perWindow),
      shortestHoldMs: SHARE_HOLDS_MS,
      longestHoldMs: LONGEST_HOLD_MS,
    });
    if (reportIgnored(checked, logger, MAX_PAUSE_MS)) history.replace(checked.kept);
    return checked.kept;
  }

  /**
   * Waits for a free slot (and the end of any pause), then takes it. Returns the function to call
   * once the request has its answer or has failed.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      const wait = this.waitMs();
      if (wait <= 0) break;
      await sleep(wait, signal);
    }
    signal?.throwIfAborted();
    // Strictly increasing send times: the history keys requests by them.
    const sentAt = Math.max(Date.now(), this.#lastSentAt + 1);
    this.#lastSentAt = sentAt;
    const request: RequestRecord = { sentAt };
    this.#requests.push(request);
    this.#history?.sent(sentAt);
    this.#gapFactor = 1 + PACING_JITTER * (2 * this.#random() - 1);
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      request.settledAt = Math.max(Date.now(), sentAt);
      this.#history?.settled(sentAt, request.settledAt);
    };
  }

  /** Requests per window the budget allows itself now (perWindow unless 429s have lowered it). */
  allowance(now: number = Date.now()): number {
    if (!this.#share) return this.perWindow;
    const held = now - this.#share.at;
    const holdMs = holdOf(this.#share);
    if (held < holdMs) return this.#share.allowance;
    // Additive increase once the share has held: one request more at once, then every INCREASE_EVERY_MS.
    const increases = 1 + Math.floor((held - holdMs) / INCREASE_EVERY_MS);
    return Math.min(this.perWindow, this.#share.allowance + increases);
  }

  /** How long until a request may leave; 0 when it may leave now. */
  waitMs(now: number = Date.now()): number {
    this.#forget(now);
    const pause = this.#pausedUntil - now;
    const allowance = this.allowance(now);
    let full = 0;
    if (this.#requests.length >= allowance) {
      // Slots free one window after each answer; one still in flight holds its slot until then.
      const frees = this.#requests
        .map((r) => (r.settledAt === undefined ? Number.POSITIVE_INFINITY : r.settledAt + this.windowMs))
        .sort((a, b) => a - b);
      const next = frees[this.#requests.length - allowance] ?? now;
      // All the slots held by requests in flight: check again shortly.
      full = Number.isFinite(next) ? next - now : 100;
    }
    return Math.max(pause, full, this.#pacingWait(allowance, now), 0);
  }

  /**
   * While another client shares the token (the allowance is below the bridge's own limit), one
   * request about every window ÷ allowance (PACING_JITTER). Alone, no pacing: a start reads every
   * child at once.
   */
  #pacingWait(allowance: number, now: number): number {
    if (allowance >= this.perWindow || this.#lastSentAt === 0) return 0;
    return this.#lastSentAt + (this.#gapFactor * this.windowMs) / allowance - now;
  }

  /**
   * After a 429, another client uses the token too. What the API allows was full with what the
   * bridge sent in the window: the bridge allows itself one less from now on, and
   * OTHER_CLIENT_MARGIN less again (never below a floor), the share the token leaves it, and from
   * then on spreads its requests over the window (PACING_JITTER). Once that share has held
   * (#shareShown), it grows back by one request every two calm minutes. Nothing leaves until the
   * API's delay, or, when it gave none, a short pause that doubles with each 429 in a row,
   * jittered so that two clients never fall into step.
   */
  pauseAfterRateLimit(retryAfterMs: number | undefined, now: number = Date.now()): void {
    this.#rateLimitedCount++;
    this.#forget(now);
    const sent = this.#requests.filter((r) => r.sentAt > now - this.windowMs).length;
    const previous = this.#share?.at ?? Number.NEGATIVE_INFINITY;
    this.#streak = now - previous < this.windowMs ? this.#streak + 1 : 1;
    this.#share = this.#shareShown(sent, now);
    this.#history?.shared(this.#share);
    const base = Math.min(this.windowMs, FIRST_PAUSE_MS * 2 ** (this.#streak - 1));
    // Never past the longest pause, whatever the caller was told (the client says what it held);
    // a delay that is no number at all is none (a NaN pause would wake the budget at once, for ever).
    const told = retryAfterMs === undefined || Number.isNaN(retryAfterMs) ? undefined : retryAfterMs;
    const pause = Math.min(MAX_PAUSE_MS, told ?? base * (0.5 + this.#random() * 0.5));
    this.#pausedUntil = Math.max(this.#pausedUntil, now + pause);
    this.#history?.paused(this.#pausedUntil);
  }

  /**
   * The share a 429 at `now` shows, with `sent` requests in the window: what fitted, less one and
   * OTHER_CLIENT_MARGIN, holding SHARE_HOLDS_MS. When the 429 ends a try for more, the other
   * client is still there and the try took some of its requests before the refusal fell on the
   * bridge's (what fitted then was more than it leaves in its busiest minute): back to the share
   * that held, at most, and holding twice as long (LONGEST_HOLD_MS at most). A 429 while a share
   * holds (the other client busier) keeps that hold; one after the bridge had the whole token
   * back comes from a client new to it, and starts again.
   */
  #shareShown(sent: number, now: number): TokenShare {
    let allowance = Math.min(this.allowance(now), sent - 1 - OTHER_CLIENT_MARGIN);
    let holdMs = SHARE_HOLDS_MS;
    const last = this.#share;
    if (last && this.allowance(now) < this.perWindow) {
      const lastHold = holdOf(last);
      if (now - last.at < lastHold) holdMs = lastHold;
      else {
        allowance = Math.min(allowance, last.allowance);
        holdMs = Math.min(LONGEST_HOLD_MS, 2 * lastHold);
      }
    }
    return { allowance: Math.max(MIN_ALLOWANCE, allowance), at: now, holdMs };
  }

  isPaused(now: number = Date.now()): boolean {
    return this.#pausedUntil > now;
  }

  /** Requests sent in the last window. */
  usedInWindow(now: number = Date.now()): number {
    this.#forget(now);
    return this.#requests.filter((r) => r.sentAt > now - this.windowMs).length;
  }

  /** 429 answers received since start. */
  get rateLimitedCount(): number {
    return this.#rateLimitedCount;
  }

  /** Drops the requests whose slot has freed. */
  #forget(now: number): void {
    for (let i = this.#requests.length - 1; i >= 0; i--) {
      const settledAt = this.#requests[i]?.settledAt;
      if (settledAt !== undefined && settledAt + this.windowMs <= now) this.#requests.splice(i, 1);
    }
  }
}
