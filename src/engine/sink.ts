import type { ApiEvent, Child, Today } from "../api/schemas.js";

/** A child as the engine knows it (as listed by GET /children). */
export type ChildRef = Child;

export type BridgeState = "starting" | "ok" | "token_invalid" | "rate_limited" | "api_unreachable";

export interface EngineStatus {
  state: BridgeState;
  /** Requests sent to the API in the last 60 s. */
  requestsLastMinute: number;
  /** What the engine allows itself per minute (the API's 30 less a safety margin). */
  budgetPerMinute: number;
  /** Requests a minute the children's cadence asks for. */
  demandPerMinute: number;
  /** 1 on cadence; above 1 when the intervals are stretched to stay within the budget. */
  stretch: number;
  children: ChildRef[];
  /** 429 answers since start (the budget is meant to keep this at 0). */
  rateLimitedCount: number;
  lastError: string | null;
}

/**
 * Where facts go: Home Assistant, or the terminal in the demo. The engine knows nothing more of
 * its destination than this.
 */
export interface Sink {
  /** Resolves when facts can be taken (e.g. Home Assistant connected and RUNNING). */
  whenReady(signal: AbortSignal): Promise<void>;
  /** The children being followed (all of them, so names can be told apart). */
  setChildren(children: readonly ChildRef[]): Promise<void>;
  publishToday(child: ChildRef, today: Today): Promise<void>;
  /**
   * Hands one journal fact to the destination and resolves once it is acknowledged. The fact must
   * leave synchronously, before the first await: the engine records it as delivered just before
   * the call, so that a crash cannot fall between the record and the delivery.
   * Rejects with NotDeliveredError when the fact certainly did not leave.
   */
  publishEvent(child: ChildRef, event: ApiEvent): Promise<void>;
  publishStatus(status: EngineStatus): Promise<void>;
  /** The child's facts cannot be read; its last good values are no longer current. */
  markUnavailable(child: ChildRef, reason: string): Promise<void>;
}

/** The fact did not reach the sink (not connected, refused): safe to send again later. */
export class NotDeliveredError extends Error {
  override name = "NotDeliveredError";
}

/**
 * The fact left but no acknowledgement came back (the connection dropped): it may or may not have
 * arrived. The engine counts it as delivered rather than risk a repeat.
 */
export class MaybeDeliveredError extends Error {
  override name = "MaybeDeliveredError";
}
