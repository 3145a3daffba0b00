import type { Logger } from "../log/logger.js";
import type { RequestRecord, StoredRequests, TokenShare } from "./storage.js";

/** What the rate budget can produce, against which a stored history is read. */
export interface BudgetBounds {
  /** When the history is read (epoch ms). */
  now: number;
  /** The longest pause the budget takes (MAX_PAUSE_MS). */
  maxPauseMs: number;
  /** The least and the most a share may allow per window. */
  minAllowance: number;
  maxAllowance: number;
  /** The shortest and the longest a share may hold. */
  shortestHoldMs: number;
  longestHoldMs: number;
}

/** A stored history read against the bounds: what is kept, and what was out of range, by kind. */
export interface CheckedHistory {
  kept: StoredRequests;
  /** The pause ignored (its end), if it was. */
  ignoredPause: number | undefined;
  /** How many requests were ignored. */
  ignoredRequests: number;
  /** The share ignored, if it was. */
  ignoredShare: TokenShare | undefined;
}

/**
 * How far ahead of the clock a stored time may lie: the budget makes send times strictly
 * increasing, so a burst of requests within one millisecond is stamped a few milliseconds ahead,
 * and a bridge restarted at once finds them so.
 */
const AHEAD_SLACK_MS = 1_000;

/**
 * Reads a stored history against what the budget can produce (pure). A damaged file, or a clock
 * set back since the history was written, can hold a pause of years, requests sent in the future
 * or a share the budget never makes: taken as they are, they paused every request for as long,
 * held slots for ever, or armed timers beyond what Node holds. Each such value is ignored.
 */
export function checkStoredHistory(stored: StoredRequests, bounds: BudgetBounds): CheckedHistory {
  const latest = bounds.now + AHEAD_SLACK_MS;
  const requests = stored.requests.filter((request) => requestInRange(request, latest));
  const pauseOk = Number.isFinite(stored.pausedUntil) && stored.pausedUntil <= bounds.now + bounds.maxPauseMs;
  const share = stored.share;
  const shareOk = share === undefined || shareInRange(share, latest, bounds);
  const kept: StoredRequests = { requests, pausedUntil: pauseOk ? stored.pausedUntil : 0 };
  if (share && shareOk) kept.share = share;
  return {
    kept,
    ignoredPause: pauseOk ? undefined : stored.pausedUntil,
    ignoredRequests: stored.requests.length - requests.length,
    ignoredShare: shareOk ? undefined : share,
  };
}

function requestInRange(request: RequestRecord, latest: number): boolean {
  const { sentAt, settledAt } = request;
  if (!Number.isFinite(sentAt) || sentAt > latest) return false;
  return (
    settledAt === undefined || (Number.isFinite(settledAt) && settledAt >= sentAt && settledAt <= latest)
  );
}

function shareInRange(share: TokenShare, latest: number, bounds: BudgetBounds): boolean {
  const { allowance, at, holdMs } = share;
  return (
    Number.isInteger(allowance) &&
    allowance >= bounds.minAllowance &&
    allowance <= bounds.maxAllowance &&
    Number.isFinite(at) &&
    at <= latest &&
    (holdMs === undefined ||
      (Number.isFinite(holdMs) && holdMs >= bounds.shortestHoldMs && holdMs <= bounds.longestHoldMs))
  );
}

/** One line for each kind of what was ignored; whether anything was. */
export function reportIgnored(
  checked: CheckedHistory,
  logger: Logger | undefined,
  maxPauseMs: number,
): boolean {
  const { ignoredPause, ignoredRequests, ignoredShare } = checked;
  const why = "(a damaged file, or the clock set back since)";
  if (ignoredPause !== undefined)
    logger?.warn(
      { pausedUntil: instant(ignoredPause) },
      `ignoring the stored pause of API requests: it ends more than ${maxPauseMs / 60_000} minutes from now ${why}`,
    );
  if (ignoredRequests > 0)
    logger?.warn(
      { count: ignoredRequests },
      `ignoring stored API requests sent in the future or with unreadable times ${why}`,
    );
  if (ignoredShare)
    logger?.warn(
      { allowance: ignoredShare.allowance, at: instant(ignoredShare.at), holdMs: ignoredShare.holdMs },
      `ignoring the stored share of the API token: out of what the rate budget makes ${why}`,
    );
  return ignoredPause !== undefined || ignoredRequests > 0 || ignoredShare !== undefined;
}

/** An epoch time for a log line: ISO 8601 when it is a date at all, else as it was read. */
function instant(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : String(ms);
}
