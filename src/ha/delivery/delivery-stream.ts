import { type Fact, isDerived } from "../../engine/derived-facts.js";

/**
 * A child's facts reach Home Assistant in two streams, each checked against a delivery record of
 * its own: her journal's, and those worked out from her day's readings. The journal's record must
 * only ever name a journal fact, since a bridge that lost its data directory looks for that fact
 * in the journal (engine/record-recovery.ts); a derived fact sent after it would hide it. The
 * engine keeps the two under ledger keys of their own (the child's id, and `<child>#derived`), and
 * each stream's receipts are its own record's stamps.
 */
export type DeliveryStream = "journal" | "derived";

export const deliveryStreams: readonly DeliveryStream[] = ["journal", "derived"];

export function streamOf(fact: Fact): DeliveryStream {
  return isDerived(fact) ? "derived" : "journal";
}

/** A key for what is kept per child and stream (a record, the facts sent lately). */
export function streamKey(childId: string, stream: DeliveryStream): string {
  return `${childId}\u0000${stream}`;
}
