import type { Logger } from "../log/logger.js";
import { type Fact, isDerived } from "./derived-facts.js";
import { type BridgeTimeOf, factAgeMs, sameInstant } from "./fact-age.js";
import { type ChildRef, type FactDelivery, NotDeliveredError, type Sink } from "./sink.js";
import type { DeliveryLedger } from "./storage.js";

/** After the claim, before the send; after the answer, before the acknowledgement is recorded. */
export type DeliveryMoment = "after_claim" | "before_ack";

export interface FactDeliveryContext {
  sink: Sink;
  delivered: DeliveryLedger;
  logger: Logger;
  /** A fact older than this when it is sent is marked replayed. */
  replayedAfterMs: number;
  /** The API's instants on the bridge's clock (engine.ts): a journal fact is dated by the API. */
  bridgeTimeOf?: BridgeTimeOf;
  /** Test hook: a pause at a moment of a delivery, so that a test can kill the process there. */
  pauseAt?: (moment: DeliveryMoment, eventId: string) => Promise<void>;
}

export interface FactsHanded {
  /** Facts handed to the sink (not those it had already). */
  count: number;
  /** Of them, those recent enough not to be marked replayed. */
  recent: number;
  /** When the earliest of them happened (epoch ms, on the bridge's clock), if any was handed over. */
  firstAt: number | undefined;
}

/**
 * Hands facts of a child to the sink, in order, each exactly once: noted in the ledger (under
 * `ledgerKey`: the child's journal, or her derived facts, each with its own record in the sink) as
 * in doubt before it is sent and as acknowledged once the sink took it. A fact already
 * acknowledged is skipped; one left in doubt by a crash goes again as such, and the sink's record
 * tells whether it had arrived. `uncertain` marks a fact the bridge cannot tell about (see
 * record-recovery.ts). The first failure stops the rest, in order.
 */
export async function deliverFacts(
  ctx: FactDeliveryContext,
  child: ChildRef,
  ledgerKey: string,
  facts: readonly Fact[],
  signal: AbortSignal,
  uncertain: (fact: Fact) => boolean = () => false,
): Promise<FactsHanded> {
  let count = 0;
  let recent = 0;
  let firstAt: number | undefined;
  for (const fact of facts) {
    const state = ctx.delivered.stateOf(ledgerKey, fact.id);
    if (state === "acknowledged") continue;
    await ctx.sink.whenReady(signal);
    const onBridge = onBridgeClock(ctx, fact);
    const ageMs = factAgeMs(fact.at, Date.now(), onBridge);
    const delivery: FactDelivery = {
      event: fact,
      ageSeconds: Math.round(ageMs / 1000),
      replayed: ageMs > ctx.replayedAfterMs,
      inDoubt: state === "in_doubt",
      lastReceipt: ctx.delivered.receiptOf(ledgerKey),
      uncertain: uncertain(fact),
    };
    // In doubt from here until the acknowledgement is recorded: a crash anywhere in between makes
    // the next run send it again as such, and the sink's record tells whether it had arrived.
    ctx.delivered.claim(ledgerKey, fact.id);
    await ctx.pauseAt?.("after_claim", fact.id);
    let outcome: Awaited<ReturnType<Sink["publishEvent"]>>;
    try {
      outcome = await ctx.sink.publishEvent(child, delivery);
    } catch (error) {
      // Certainly not arrived: forget the claim, unless an earlier send left it in doubt. Any
      // other failure (sent, no answer) leaves it in doubt, and the rest waits, in order.
      if (error instanceof NotDeliveredError && !delivery.inDoubt) ctx.delivered.release(ledgerKey, fact.id);
      throw error;
    }
    await ctx.pauseAt?.("before_ack", fact.id);
    ctx.delivered.acknowledge(ledgerKey, fact.id, outcome.receipt);
    if (outcome.alreadyDelivered) {
      ctx.logger.info(
        { child: child.firstName, event: fact.id, type: fact.type },
        "a fact in doubt had arrived already; not sent again",
      );
    } else {
      count++;
      if (!delivery.replayed) recent++;
      const at = onBridge(Date.parse(fact.at));
      if (Number.isFinite(at)) firstAt = Math.min(firstAt ?? at, at);
    }
  }
  return { count, recent, firstAt };
}

/** How a fact's time reads on the bridge's clock: a derived fact is dated by the bridge itself. */
function onBridgeClock(ctx: FactDeliveryContext, fact: Fact): BridgeTimeOf {
  return isDerived(fact) ? sameInstant : (ctx.bridgeTimeOf ?? sameInstant);
}
