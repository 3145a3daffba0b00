import {
  ApiError,
  ChildNotCoveredError,
  RateLimitedError,
  RulesNotSyncedError,
  SchemaMismatchError,
  TokenRejectedError,
} from "../api/errors.js";
import { MaybeDeliveredError, NotDeliveredError } from "./sink.js";
import { StorageError } from "./storage.js";

/** What a failed job means for the loop, decided from the error alone (pure; see the table test). */
export type FailureAction =
  /**
   * The sink went away mid-page (`refused` false): hold until it is back, then this child goes
   * first. Or it answered and refused the fact (`refused`): the same page is read again after a
   * wait that grows while it keeps refusing.
   */
  | { kind: "await_sink"; refused: boolean; message: string }
  /** The data directory refused a write: nothing was lost, the job comes again at its turn. */
  | { kind: "storage_failing"; message: string }
  /** 401: stop polling, say token_invalid, check again now and then. */
  | { kind: "token_rejected"; message: string }
  /** 429: pause every request of the token. */
  | { kind: "rate_limited"; retryAfterMs: number | undefined; message: string }
  /** 403: the token no longer covers the child; stop polling it until discovery brings it back. */
  | { kind: "child_not_covered" }
  /** 409: no rules synced yet for the child; it is unavailable, asked again at the today cadence. */
  | { kind: "rules_not_synced" }
  /** An answer that cannot be read: log it once, skip it, keep going. */
  | { kind: "unreadable_answer"; issues: readonly string[]; path: string; message: string }
  /** The API fails (network, 5xx): keep the last values, unavailable only after a long spell. */
  | { kind: "api_failing"; message: string }
  /** A bug: log it with its stack; the loop goes on. */
  | { kind: "unexpected"; message: string };

export function failureAction(error: unknown): FailureAction {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof NotDeliveredError || error instanceof MaybeDeliveredError)
    return { kind: "await_sink", refused: error instanceof NotDeliveredError, message };
  if (error instanceof StorageError) return { kind: "storage_failing", message };
  if (error instanceof TokenRejectedError) return { kind: "token_rejected", message };
  if (error instanceof RateLimitedError)
    return { kind: "rate_limited", retryAfterMs: error.retryAfterMs, message };
  if (error instanceof ChildNotCoveredError) return { kind: "child_not_covered" };
  if (error instanceof RulesNotSyncedError) return { kind: "rules_not_synced" };
  if (error instanceof SchemaMismatchError) {
    return { kind: "unreadable_answer", issues: error.issues, path: error.request.path, message };
  }
  if (error instanceof ApiError) return { kind: "api_failing", message };
  return { kind: "unexpected", message };
}

/** Whether an action is the bridge's own error to show (`last_error`), not a child's condition. */
export function isBridgeError(action: FailureAction): boolean {
  return !["await_sink", "child_not_covered", "rules_not_synced"].includes(action.kind);
}
