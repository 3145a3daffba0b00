import type { Today } from "../api/schemas.js";
import {
  type Backwards,
  type DerivationState,
  derive,
  noDerivationState,
  type Snapshot,
} from "./derivation.js";
import { deliverFacts, type FactDeliveryContext } from "./fact-delivery.js";
import type { ChildRef } from "./sink.js";
import type { DerivedFactsStore, DerivedRecord } from "./storage.js";

export interface DerivedJobContext extends FactDeliveryContext {
  /** Where each child's derivation state and pending facts are kept; in memory only without. */
  store: DerivedFactsStore | undefined;
  /** Minutes remaining at which `minutes_low` fires (the `minutes_low_thresholds` option). */
  minutesLowThresholds: readonly number[];
  /** Each child's record as last read or written, so the store is read once a run. */
  records: Map<string, DerivedRecord>;
  /** What went backwards was said once per child, day and kind. */
  backwardsSaid: Set<string>;
}

export function derivedJobParts(): Pick<DerivedJobContext, "records" | "backwardsSaid"> {
  return { records: new Map(), backwardsSaid: new Set() };
}

/** The ledger's key for a child's derived facts: their own record in the sink, apart from the journal's. */
export const derivedLedgerKey = (childId: string) => `${childId}#derived`;

/**
 * Works out the facts a new reading of the child's today shows (derivation.ts), keeps them with
 * the reading before anything is sent, and hands every pending one to the sink, exactly once, as
 * journal facts are. Throws what the delivery throws (the sink away): the facts stay pending.
 */
export async function deriveAndDeliver(
  ctx: DerivedJobContext,
  child: ChildRef,
  today: Today,
  readAt: number,
  signal: AbortSignal,
): Promise<void> {
  const kept = await recordOf(ctx, child);
  const derivation = derive(child.id, kept.state, today, readAt, {
    minutesLowThresholds: ctx.minutesLowThresholds,
    bridgeTimeOf: ctx.bridgeTimeOf,
  });
  sayBackwards(ctx, child, today.date, derivation.backwards);
  const record: DerivedRecord = { state: derivation.state, pending: [...kept.pending, ...derivation.facts] };
  ctx.records.set(child.id, record);
  // Written only when it says something new: a reading like the last costs no write.
  if (derivation.facts.length > 0 || !sameReading(kept.state, derivation.state))
    await ctx.store?.set(child.id, record);
  if (record.pending.length === 0) return;
  await deliverFacts(ctx, child, derivedLedgerKey(child.id), record.pending, signal);
  const delivered: DerivedRecord = { state: record.state, pending: [] };
  ctx.records.set(child.id, delivered);
  await ctx.store?.set(child.id, delivered);
}

async function recordOf(ctx: DerivedJobContext, child: ChildRef): Promise<DerivedRecord> {
  const known = ctx.records.get(child.id);
  if (known) return known;
  // Checked as it is read back (store/derived-store.ts): a damaged record comes as none.
  return (await ctx.store?.get(child.id)) ?? { state: noDerivationState, pending: [] };
}

function sayBackwards(ctx: DerivedJobContext, child: ChildRef, day: string, backwards: readonly Backwards[]) {
  for (const kind of backwards) {
    const key = `${child.id}|${day}|${kind}`;
    if (ctx.backwardsSaid.has(key)) continue;
    ctx.backwardsSaid.add(key);
    ctx.logger.info(
      { child: child.firstName, change: kind },
      "today's reading went backwards (undone in the app?): no fact is made of it",
    );
  }
}

/** Whether two states keep the same reading, but for when it was read. */
function sameReading(before: DerivationState, after: DerivationState): boolean {
  const strip = (snapshot: Snapshot | null) => (snapshot ? { ...snapshot, readAt: 0 } : null);
  return (
    before.sessions === after.sessions &&
    JSON.stringify(strip(before.last)) === JSON.stringify(strip(after.last))
  );
}
