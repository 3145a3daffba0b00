import type { TimedEvent } from "./ledger.js";

/** Where a fact sits in the journal: the spec orders by (recorded_at, id). */
export interface JournalKey {
  recordedAt: number;
  id: string;
}

/** Recorded instant first, then id, so that facts sharing an instant still have one order. */
export function compareKeys(a: JournalKey, b: JournalKey): number {
  if (a.recordedAt !== b.recordedAt) return a.recordedAt - b.recordedAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function keyOfTimed(fact: TimedEvent): JournalKey {
  return { recordedAt: fact.recordedAt, id: fact.event.id };
}
