// What the engine, and a sink that keeps notes of its own, need from storage: the ports that
// src/store implements durably, defined here so that neither side needs the other's modules.
import type { DerivationState } from "./derivation.js";
import type { DerivedFact } from "./derived-facts.js";
import type { ChildRef, FactDelivery } from "./sink.js";

/**
 * A failure of the data directory (src/store's errors are of this kind): nothing is lost, the
 * engine tries again later. Defined here so that the engine needs nothing from src/store.
 */
export class StorageError extends Error {}

/** One cursor per child, durable once `set` resolves. */
export interface CursorStore {
  get(childId: string): Promise<string | undefined>;
  set(childId: string, cursor: string): Promise<void>;
  delete(childId: string): Promise<void>;
}

/**
 * Where a journal fact stands with the sink: `in_doubt` once it is about to be sent, until the
 * sink acknowledges it (`acknowledged`). A fact found in doubt after a crash may have arrived:
 * it is sent again as such, and the sink resolves it against its own record.
 */
export type DeliveryState = "in_doubt" | "acknowledged";

/** Recently delivered facts per child, each change durable against a kill when it returns. */
export interface DeliveryLedger {
  stateOf(childId: string, eventId: string): DeliveryState | undefined;
  /** The fact is about to be sent. */
  claim(childId: string, eventId: string): void;
  /** The sink took the fact; `receipt` is what it returned, kept for its next fact in doubt. */
  acknowledge(childId: string, eventId: string, receipt?: string): void;
  /** The fact certainly did not leave: forget the claim. */
  release(childId: string, eventId: string): void;
  /** The receipt of the child's last acknowledged fact. */
  receiptOf(childId: string): string | undefined;
  /** Whether it holds anything of the child: a ledger that lost it (or never had it) does not. */
  knows(childId: string): boolean;
}

/** One request as the rate budget recorded it. */
export interface RequestRecord {
  sentAt: number;
  /** When its answer (or its failure) came; missing while in flight, or when the process died. */
  settledAt?: number;
}

/** What the last 429 showed another client leaves the bridge of the token. */
export interface TokenShare {
  /** Requests per window. */
  allowance: number;
  /** When the 429 came (epoch ms). */
  at: number;
  /**
   * How long the share holds before the bridge tries for more; missing in a share written before
   * tries could be spaced out, read as the first hold.
   */
  holdMs?: number;
}

/** What a request history holds: the requests of the window, any pause, the token's share. */
export interface StoredRequests {
  requests: RequestRecord[];
  /** Nothing may leave before this (epoch ms; 0 for no pause). */
  pausedUntil: number;
  share?: TokenShare;
}

/**
 * The requests of the current rate window, any pause and the token's share, kept across restarts
 * of the bridge.
 */
export interface RequestHistory {
  load(): StoredRequests;
  /**
   * What the budget kept of what `load` gave, once it ignored some of it (out of range): the rest
   * is dropped from the history too, so that it is not read again at every start.
   */
  replace(kept: StoredRequests): void;
  sent(sentAt: number): void;
  settled(sentAt: number, settledAt: number): void;
  /** Nothing may leave before `until` (after a 429). */
  paused(until: number): void;
  shared(share: TokenShare): void;
}

/** A fact sent to the sink lately, with what it said (the sink's history, RecentDeliveryHistory). */
export interface RecentDelivery {
  child: ChildRef;
  delivery: FactDelivery;
  /** When it was last sent (epoch ms). */
  sentAt: number;
  /** When the sink last answered it (epoch ms); undefined while no answer came. */
  answeredAt: number | undefined;
}

/**
 * Where a sink notes the facts it sent lately, across restarts of the bridge, each note safe from a
 * kill once made: Home Assistant's deliverer sends again from it what a crash of Home Assistant
 * lost (src/ha/delivery/recent-deliveries.ts). `load` gives them in the order they were first sent.
 */
export interface RecentDeliveryHistory {
  load(): RecentDelivery[];
  sent(entry: RecentDelivery): void;
  answered(childId: string, eventId: string, at: number): void;
  /** Need no longer keep what was last noted before `before`, except each child's last fact. */
  forget(before: number): void;
}

/** When the entry was last noted: its answer, or its sending while no answer came. */
export function notedAt(entry: RecentDelivery): number {
  return entry.answeredAt ?? entry.sentAt;
}

/**
 * What derivation keeps of a child (the last reading) and the derived facts not yet acknowledged,
 * together: written before any of those facts is sent, in one write, so that a crash between a
 * reading and the delivery of what it showed loses nothing.
 */
export interface DerivedRecord {
  state: DerivationState;
  pending: DerivedFact[];
}

/** One DerivedRecord per child, durable once `set` resolves. */
export interface DerivedFactsStore {
  get(childId: string): Promise<DerivedRecord | undefined>;
  set(childId: string, record: DerivedRecord): Promise<void>;
}
