import { behaviorStatusSchema } from "../api/schemas.js";
import type { DerivationState, Snapshot } from "../engine/derivation.js";
import { type DerivedFact, derivedFactTypes, MAX_FACT_ID_LENGTH } from "../engine/derived-facts.js";
import type { DerivedFactsStore, DerivedRecord } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import * as z from "../zod.js";
import type { JsonValue } from "./json.js";
import { keptValue } from "./kept-value.js";
import type { Store } from "./open-store.js";

const keyOf = (childId: string) => `derived:${childId}`;

const count = z.int().check(z.minimum(0));
const text = z.string();

const snapshotSchema = z.object({
  date: z.iso.date(),
  isMyDay: z.boolean(),
  readAt: z.number(),
  points: z.optional(z.number()),
  minutesRemaining: z.optional(z.number()),
  minutesUnlocked: z.optional(z.number()),
  mandatoryOk: z.optional(z.boolean()),
  perfect: z.optional(z.boolean()),
  streakDays: z.optional(z.number()),
  nextTierPointsNeeded: z.nullish(z.number()),
  nextTierUnitsGain: z.nullish(z.number()),
  behaviors: z.optional(z.record(z.string(), behaviorStatusSchema)),
  running: z.optional(z.boolean()),
  endsAt: z.nullish(text),
}) satisfies z.ZodMiniType<Snapshot, unknown>;

const stateSchema = z.object({
  last: z.nullable(snapshotSchema),
  sessions: count,
  latestDay: z.optional(z.iso.date()),
}) satisfies z.ZodMiniType<DerivationState, unknown>;

/** A fact worked out earlier and not yet acknowledged: what the sink needs to send it. */
const factSchema = z.object({
  derived: z.literal(true),
  id: z.string().check(z.minLength(1), z.maxLength(MAX_FACT_ID_LENGTH)),
  childId: z.string().check(z.minLength(1)),
  day: z.iso.date(),
  at: z.iso.datetime({ offset: true }),
  type: z.enum(derivedFactTypes),
});

/** The fields each kind carries besides the common ones (derived-facts.ts). */
const detailOf: Record<DerivedFact["type"], z.ZodMiniObject> = {
  behavior_declared: z.object({ behaviorId: text, label: text, mandatory: z.boolean() }),
  behavior_rejected: z.object({ behaviorId: text, label: text, mandatory: z.boolean() }),
  minutes_low: z.object({ minutesRemaining: z.number(), threshold: z.number() }),
  session_ended: z.object({ sessionMinutes: z.nullable(z.number()) }),
  mandatory_done: z.object({}),
  perfect_day: z.object({}),
  streak_extended: z.object({ streak: z.number(), previousStreak: z.number() }),
  streak_broken: z.object({ streak: z.number(), previousStreak: z.number() }),
  next_tier_reached: z.object({ points: z.number(), unitsGain: z.number() }),
  day_started: z.object({ period: text, minutesUnlocked: z.number() }),
};

function isFact(value: unknown, childId: string): value is DerivedFact {
  const common = z.safeParse(factSchema, value);
  return (
    common.success &&
    common.data.childId === childId &&
    z.safeParse(detailOf[common.data.type], value).success
  );
}

/** The record as kept: its state checked whole, its pending facts one by one (below). */
const recordSchema = z.object({ state: stateSchema, pending: z.array(z.unknown()) });

/**
 * The engine's derivation state and pending derived facts, one key per child in the durable store.
 * Read back checked: a damaged state is set aside (the next two readings make facts again), and a
 * damaged pending fact alone, the others still sent: one fact that cannot be sent must not hold
 * back every later one of the child's.
 */
export function derivedStoreOn(store: Store, logger: Logger): DerivedFactsStore {
  const recordOf = (childId: string) =>
    keptValue(store, keyOf(childId), recordSchema as unknown as z.ZodMiniType<JsonValue>, logger, {
      what: "the kept reading of a child's day",
      instead: "her facts are worked out again from her next two readings",
    });
  return {
    get: async (childId) => {
      const kept = (await recordOf(childId).get()) as z.infer<typeof recordSchema> | undefined;
      if (!kept) return undefined;
      const pending = kept.pending.filter((fact) => isFact(fact, childId));
      const record: DerivedRecord = { state: kept.state as DerivationState, pending };
      if (pending.length < kept.pending.length) {
        logger.warn(
          { key: keyOf(childId), facts: kept.pending.length - pending.length },
          "facts worked out earlier in the data directory are damaged and are set aside: the others are sent",
        );
        await store.set(keyOf(childId), record as unknown as JsonValue);
      }
      return record;
    },
    set: (childId, record) => store.set(keyOf(childId), record as unknown as JsonValue),
  };
}
