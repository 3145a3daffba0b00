import * as z from "../zod.js";

// Schemas of the Household Reward Facts API v1, one per resource of the spec. Types are inferred
// from them. Objects are not strict: fields the spec does not show yet must not break a reading.

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

export const childSchema = z.object({
  id: z.string().check(z.minLength(1)),
  firstName: z.string(),
});
export type Child = z.infer<typeof childSchema>;

export const childrenSchema = z.array(childSchema);

/** The children's list as it travels: entries stay unparsed, so that one unreadable is skipped alone. */
export const rawChildrenSchema = z.array(z.unknown());

export const behaviorStatusSchema = z.enum(["todo", "declared", "validated", "rejected"]);
export type BehaviorStatus = z.infer<typeof behaviorStatusSchema>;

export const behaviorSchema = z.object({
  id: z.string(),
  label: z.string(),
  status: behaviorStatusSchema,
  mandatory: z.boolean(),
});
export type Behavior = z.infer<typeof behaviorSchema>;

export const sessionSchema = z.object({
  running: z.optional(z.boolean()),
  endsAt: z.nullish(isoDateTime),
  minutes: z.optional(z.int()),
});
export type Session = z.infer<typeof sessionSchema>;

export const nextTierSchema = z.object({
  pointsNeeded: z.int(),
  unitsGain: z.int(),
});
export type NextTier = z.infer<typeof nextTierSchema>;

export const periodSchema = z.enum(["school", "holiday", "weekend"]);
export type Period = z.infer<typeof periodSchema>;

/** The today answer on a day of the other household (independent shared custody). */
export const calmDaySchema = z.object({
  date: isoDate,
  isMyDay: z.literal(false),
});
export type CalmDay = z.infer<typeof calmDaySchema>;

/** The today answer on a day of this household. */
export const todayPayloadSchema = z.object({
  date: isoDate,
  isMyDay: z.literal(true),
  period: periodSchema,
  points: z.int(),
  maxPoints: z.int(),
  minutesUnlocked: z.int(),
  minutesConsumed: z.int(),
  minutesRemaining: z.int(),
  consumableToday: z.boolean(),
  mandatoryOk: z.boolean(),
  perfect: z.boolean(),
  frozen: z.boolean(),
  joker: z.boolean(),
  nextTier: z.nullish(nextTierSchema),
  behaviors: z.array(behaviorSchema),
  session: z.nullish(sessionSchema),
  streakDays: z.int(),
});
export type TodayPayload = z.infer<typeof todayPayloadSchema>;

export const todaySchema = z.discriminatedUnion("isMyDay", [todayPayloadSchema, calmDaySchema]);
export type Today = z.infer<typeof todaySchema>;

const eventCommon = {
  id: z.string().check(z.minLength(1)),
  at: isoDateTime,
  day: isoDate,
  childId: z.string().check(z.minLength(1)),
};

export const behaviorValidatedSchema = z.object({
  ...eventCommon,
  type: z.literal("behavior_validated"),
  behaviorId: z.nullable(z.string()),
  label: z.nullable(z.string()),
});

export const sessionStartedSchema = z.object({
  ...eventCommon,
  type: z.literal("session_started"),
  minutes: z.int(),
});

export const menuItemConsumedSchema = z.object({
  ...eventCommon,
  type: z.literal("menu_item_consumed"),
  menuItemId: z.nullable(z.string()),
  label: z.nullable(z.string()),
});

export const cheerSentSchema = z.object({
  ...eventCommon,
  type: z.literal("cheer_sent"),
  cheer: z.enum(["bravo", "super", "seen"]),
});

export const apiEventSchema = z.discriminatedUnion("type", [
  behaviorValidatedSchema,
  sessionStartedSchema,
  menuItemConsumedSchema,
  cheerSentSchema,
]);
export type ApiEvent = z.infer<typeof apiEventSchema>;
export type ApiEventType = ApiEvent["type"];
export const apiEventTypes: readonly ApiEventType[] = apiEventSchema.def.options.flatMap(
  (o) => o.shape.type.def.values,
);

/**
 * The page as it travels: events stay unparsed here so that one event of a type this client does
 * not know (or one it cannot read) is skipped alone instead of failing the page and its cursor.
 * The cursor may be null or absent on an empty page (the spec does not show which).
 */
export const rawEventsPageSchema = z.object({
  events: z.array(z.unknown()),
  cursor: z.nullish(z.string()),
});

export const eventsPageSchema = z.object({
  events: z.array(apiEventSchema).check(z.maxLength(100)),
  cursor: z.nullable(z.string()),
});
export type EventsPage = z.infer<typeof eventsPageSchema>;

export const errorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
