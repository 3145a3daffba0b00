import pRetry from "p-retry";
import { ApiError } from "../api/errors.js";

export interface RetryOptions {
  retries?: number;
  minTimeoutMs?: number;
}

/**
 * Retries what may pass on a second try (5xx, timeouts, network failures) with backoff. Every
 * attempt takes its slot in the rate budget through the client, so retries stay within it.
 * A 4xx, a 429 or an unreadable answer is never retried here: repeating it would not help.
 */
export function retryTransient<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal | undefined,
  options: RetryOptions = {},
): Promise<T> {
  return pRetry(attempt, {
    retries: options.retries ?? 2,
    minTimeout: options.minTimeoutMs ?? 1_000,
    factor: 3,
    randomize: true,
    signal,
    shouldRetry: ({ error }) => error instanceof ApiError && error.retryable && !signal?.aborted,
  });
}
