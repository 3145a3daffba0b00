import type { Child, Today } from "../api/schemas.js";
import type { Fact } from "./derived-facts.js";

/** A child as the engine knows it (as listed by GET /children). */
export type ChildRef = Child;

export type BridgeState =
  | "starting"
  | "ok"
  | "token_invalid"
  | "rate_limited"
  | "api_unreachable"
  | "stopped";

/** Why a child's facts cannot be shown; each sink words it for its readers. */
export type UnavailableReason =
  | "rules_not_synced"
  | "not_covered"
  | "token_rejected"
  | "api_unreachable"
  | "bridge_stopped";

export interface EngineStatus {
  state: BridgeState;
  /** Requests sent to the API in the last 60 s. */
  requestsLastMinute: number;
  /** What the engine allows itself per minute (the API's 30 less a safety margin). */
  budgetPerMinute: number;
  /** Requests a minute the children's cadence asks for. */
  demandPerMinute: number;
  /** 1 on cadence; above 1 when the journal's interval is stretched to stay within the budget. */
  stretch: number;
  /** The same for the today interval, which stretches first (cadence.ts). */
  todayStretch: number;
  children: ChildRef[];
  /** 429 answers since start (the budget is meant to keep this at 0). */
  rateLimitedCount: number;
  lastError: string | null;
  /** When the main loop last turned (epoch ms): a stale value means a stuck or stopped bridge. */
  lastTurnAt: number;
}

/** One fact (of the journal, or derived from today's readings) on its way to the sink. */
export interface FactDelivery {
  event: Fact;
  /** How late it is: seconds from the fact (its `at`) to now. */
  ageSeconds: number;
  /** Older than the configured threshold: a catch-up (first start, an outage), not news. */
  replayed: boolean;
  /** Sent before without an answer (the bridge died, the link dropped): it may have arrived. */
  inDoubt: boolean;
  /** What the sink returned for the child's last acknowledged fact. */
  lastReceipt: string | undefined;
  /**
   * The bridge had lost its own record of the child's deliveries, and the destination's record
   * could not tell whether this fact had arrived (record-recovery.ts): it is sent marked as
   * possibly repeated.
   */
  uncertain: boolean;
}

/**
 * The destination's own record of a child's deliveries, read when the bridge has none of its own
 * for the child (record-recovery.ts).
 */
export type DeliveryRecordReading =
  /** The destination keeps no record it could be asked (the terminal): nothing to judge by. */
  | { kind: "none" }
  /** It keeps records but cannot now (Home Assistant without its helpers): nothing is certain. */
  | { kind: "unknown" }
  /**
   * Its record names no fact: nothing was delivered, at least since `updatedAt` (epoch ms, when
   * the record was made or last changed, where the destination says).
   */
  | { kind: "empty"; updatedAt?: number }
  /** Its record names the child's last delivered fact; it last changed at `updatedAt` (epoch ms). */
  | { kind: "names"; factId: string; updatedAt: number };

export interface DeliveryOutcome {
  /** Kept by the engine and handed back with the child's next fact (see FactDelivery). */
  receipt?: string;
  /** The sink's own record showed the fact had arrived before: it was not sent again. */
  alreadyDelivered?: boolean;
}

/**
 * Where facts go: Home Assistant, or the terminal in the demo. The engine knows nothing more of
 * its destination than this, and the app nothing more than this and its lifecycle.
 */
export interface Sink {
  /**
   * Connects (retrying by itself what may come back); rejects with SinkRefusedError when the
   * destination refuses the credentials, which a person must fix.
   */
  open(): Promise<void>;
  /** Disconnects; the sink takes nothing more. */
  close(): Promise<void>;
  /** The household's time zone as the destination knows it (Home Assistant's), once known. */
  timeZone(): string | undefined;
  /** Resolves when facts can be taken (e.g. Home Assistant connected and RUNNING). */
  whenReady(signal: AbortSignal): Promise<void>;
  /** Whether facts can be taken right now. */
  readonly ready: boolean;
  /** The children followed now; one that left the household (no longer covered) is not among them. */
  setChildren(children: readonly ChildRef[]): Promise<void>;
  /** Today's state of a child, read from the API at `readAt` (epoch ms). */
  publishToday(child: ChildRef, today: Today, readAt: number): Promise<void>;
  /**
   * Hands one journal fact to the destination and resolves once it is acknowledged. A fact in
   * doubt is resolved by the sink against its own record where it keeps one, and marked as
   * possibly repeated where that record cannot tell.
   * Rejects with NotDeliveredError when the fact certainly did not arrive, MaybeDeliveredError
   * when it left but no answer came.
   */
  publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome>;
  /**
   * The destination's record of the child's deliveries (see DeliveryRecordReading); absent where
   * there is none to ask. Rejects with NotDeliveredError while the destination cannot be asked.
   */
  readDeliveryRecord?(child: ChildRef): Promise<DeliveryRecordReading>;
  publishStatus(status: EngineStatus): Promise<void>;
  /** The child's facts cannot be read; its last good values are no longer current. */
  markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void>;
}

/** The fact did not reach the sink (not connected, refused): safe to send again later. */
export class NotDeliveredError extends Error {
  override name = "NotDeliveredError";
}

/**
 * The fact left but no acknowledgement came back (the connection dropped): it may or may not have
 * arrived. The engine keeps it in doubt and sends it again as such once the sink is back.
 */
export class MaybeDeliveredError extends Error {
  override name = "MaybeDeliveredError";
}

/** The destination refused the bridge's credentials (a token, a non-admin user): a person must act. */
export class SinkRefusedError extends Error {
  override name = "SinkRefusedError";
}
