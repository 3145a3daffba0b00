import { z } from "zod";

// Schemas of the Household Reward Facts API v1, one per resource of the spec. Types are inferred
// from them. Objects are not strict: fields the spec does not show yet must not break a reading.

const isoDateTime = z.iso.datetime({ offset: true });
const isoDate = z.iso.date();

export const childSchema = z.object({
  id: z.string().min(1),
  firstName: z.string(),
});
export type Child = z.infer<typeof childSchema>;

export const childrenSchema = z.array(childSchema);

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
  running: z.boolean().optional(),
  endsAt: isoDateTime.nullish(),
  minutes: z.number().int().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

export const nextTierSchema = z.object({
  pointsNeeded: z.number().int(),
  unitsGain: z.number().int(),
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
  points: z.number().int(),
  maxPoints: z.number().int(),
  minutesUnlocked: z.number().int(),
  minutesConsumed: z.number().int(),
  minutesRemaining: z.number().int(),
  consumableToday: z.boolean(),
  mandatoryOk: z.boolean(),
  perfect: z.boolean(),
  frozen: z.boolean(),
  joker: z.boolean(),
  nextTier: nextTierSchema.nullish(),
  behaviors: z.array(behaviorSchema),
  session: sessionSchema.nullish(),
  streakDays: z.number().int(),
});
export type TodayPayload = z.infer<typeof todayPayloadSchema>;

export const todaySchema = z.discriminatedUnion("isMyDay", [todayPayloadSchema, calmDaySchema]);
export type Today = z.infer<typeof todaySchema>;

const eventCommon = {
  id: z.string().min(1),
  at: isoDateTime,
  day: isoDate,
  childId: z.string().min(1),
};

export const behaviorValidatedSchema = z.object({
  ...eventCommon,
  type: z.literal("behavior_validated"),
  behaviorId: z.string().nullable(),
  label: z.string().nullable(),
});

export const sessionStartedSchema = z.object({
  ...eventCommon,
  type: z.literal("session_started"),
  minutes: z.number().int(),
});

export const menuItemConsumedSchema = z.object({
  ...eventCommon,
  type: z.literal("menu_item_consumed"),
  menuItemId: z.string().nullable(),
  label: z.string().nullable(),
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
export const apiEventTypes: readonly ApiEventType[] = apiEventSchema.options.map((o) => o.shape.type.value);

/**
 * The page as it travels: events stay unparsed here so that one event of a type this client does
 * not know (or one it cannot read) is skipped alone instead of failing the page and its cursor.
 * The cursor may be null or absent on an empty page (the spec does not show which).
 */
export const rawEventsPageSchema = z.object({
  events: z.array(z.unknown()),
  cursor: z.string().nullish(),
});

export const eventsPageSchema = z.object({
  events: z.array(apiEventSchema).max(100),
  cursor: z.string().nullable(),
});
export type EventsPage = z.infer<typeof eventsPageSchema>;

export const errorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;
