import type { Behavior, Today } from "../../api/schemas.js";
import type { BridgeState, EngineStatus, UnavailableReason } from "../../engine/sink.js";
import type { Texts } from "../texts/texts.js";
import {
  type ChildEntityKind,
  childEntityDefinitions,
  childEntityKinds,
  classAttributes,
  statusDefinition,
} from "./catalogue.js";
import type { EntityNames } from "./entity-names.js";

export { childEntityKinds } from "./catalogue.js";
export { childEntityId, STATUS_ENTITY_ID } from "./entity-names.js";

// Pure mapping of facts to Home Assistant entity ids, states and attributes, as the bridge
// contract fixes them, under the names given (the contract's, or the demo's). snake_case lives
// here, at the edge; nothing here does I/O.

export type Attributes = Record<string, unknown>;

export interface EntityState {
  entityId: string;
  /** The catalogue's key of a child's entity (`minutes_remaining`); none for the status. */
  kind?: ChildEntityKind;
  state: string;
  attributes: Attributes;
}

export interface ChildIdentity {
  id: string;
  firstName: string;
  /** The folded first name used in entity ids (see slugs.ts). */
  slug: string;
}

/** A state is at most 255 characters in Home Assistant. */
const MAX_STATE_LENGTH = 255;
/** The recorder drops attributes above 16 KiB; the behaviors list is the only one that grows. */
const MAX_BEHAVIOR_ITEMS = 40;
const MAX_LABEL_LENGTH = 100;

const onOff = (value: boolean) => (value ? "on" : "off");
const UNKNOWN = "unknown";

/** An ISO 8601 instant with an explicit UTC offset (Home Assistant's time trigger needs one). */
export function withOffset(iso: string): string | undefined {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : isoTime(ms);
}

/** An instant as Home Assistant writes times: whole seconds, `+00:00`. */
function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** A child's entities under one naming, in the household's language. */
interface ChildNaming {
  names: EntityNames;
  texts: Texts;
  child: ChildIdentity;
}

function entity(
  { names, texts, child }: ChildNaming,
  kind: ChildEntityKind,
  state: string,
  attributes: Attributes = {},
): EntityState {
  const def = childEntityDefinitions[kind];
  return {
    entityId: names.child(child.slug, kind),
    kind,
    state: state.slice(0, MAX_STATE_LENGTH),
    attributes: {
      ...classAttributes(def),
      ...attributes,
      child_id: child.id,
      child_name: child.firstName,
      friendly_name: `${child.firstName} ${texts.entities[kind]}`,
      icon: def.icon,
    },
  };
}

function behaviorItems(behaviors: readonly Behavior[]) {
  return behaviors.slice(0, MAX_BEHAVIOR_ITEMS).map((b) => ({
    id: b.id,
    label: b.label.slice(0, MAX_LABEL_LENGTH),
    status: b.status,
    mandatory: b.mandatory,
  }));
}

/**
 * Every entity of a child from today's answer (a CalmDay, the other household's day, included),
 * each with `last_read`: when the values were last read from the API, so a template can tell
 * a stale value.
 */
export function childEntities(
  names: EntityNames,
  texts: Texts,
  child: ChildIdentity,
  today: Today,
  readAt: number,
): EntityState[] {
  const lastRead = isoTime(readAt);
  return todayEntities({ names, texts, child }, today).map((state) => ({
    ...state,
    attributes: { ...state.attributes, last_read: lastRead },
  }));
}

function todayEntities(child: ChildNaming, today: Today): EntityState[] {
  if (!today.isMyDay) {
    // The other household's day: the API says nothing but that. Minutes are 0 here (nothing can
    // be used at this home), what cannot be known is `unknown`.
    return [
      entity(child, "minutes_remaining", "0", { is_my_day: false }),
      entity(child, "minutes_unlocked", "0"),
      entity(child, "minutes_consumed", "0"),
      entity(child, "points", UNKNOWN, {
        max_points: null,
        next_tier_points_needed: null,
        next_tier_units_gain: null,
      }),
      entity(child, "streak", UNKNOWN),
      entity(child, "session_ends_at", UNKNOWN),
      entity(child, "session_running", "off", { session_minutes: null }),
      entity(child, "my_day", "off", { date: today.date }),
      entity(child, "period", UNKNOWN),
      entity(child, "consumable_today", "off"),
      entity(child, "mandatory_ok", UNKNOWN, { perfect: null, frozen: null, joker: null }),
      entity(child, "behaviors", UNKNOWN, { total: 0, mandatory_left: 0, items: [] }),
      // Nothing can be used at this home today: known, not unknown.
      screenTimeEntity(child, today),
    ];
  }
  const session = today.session ?? null;
  const running = session?.running === true;
  const endsAt = running && session?.endsAt ? withOffset(session.endsAt) : undefined;
  const validated = today.behaviors.filter((b) => b.status === "validated").length;
  const mandatoryLeft = today.behaviors.filter((b) => b.mandatory && b.status !== "validated").length;
  return [
    entity(child, "minutes_remaining", String(today.minutesRemaining), { is_my_day: true }),
    entity(child, "minutes_unlocked", String(today.minutesUnlocked)),
    entity(child, "minutes_consumed", String(today.minutesConsumed)),
    entity(child, "points", String(today.points), {
      max_points: today.maxPoints,
      next_tier_points_needed: today.nextTier?.pointsNeeded ?? null,
      next_tier_units_gain: today.nextTier?.unitsGain ?? null,
    }),
    entity(child, "streak", String(today.streakDays)),
    entity(child, "session_ends_at", endsAt ?? UNKNOWN),
    entity(child, "session_running", onOff(running), { session_minutes: session?.minutes ?? null }),
    entity(child, "my_day", "on", { date: today.date }),
    entity(child, "period", today.period),
    entity(child, "consumable_today", onOff(today.consumableToday)),
    entity(child, "mandatory_ok", onOff(today.mandatoryOk), {
      perfect: today.perfect,
      frozen: today.frozen,
      joker: today.joker,
    }),
    entity(child, "behaviors", String(validated), {
      total: today.behaviors.length,
      mandatory_left: mandatoryLeft,
      items: behaviorItems(today.behaviors),
    }),
    screenTimeEntity(child, today),
  ];
}

/** Why screens are not allowed now, the first that applies, in the contract's order; none while they are. */
export type WhyNot = "other_household_day" | "not_consumable_today" | "no_minutes_left";

/** The binary sensor, with `why_not` while it is off (none while on: nothing to explain). */
function screenTimeEntity(child: ChildNaming, today: Today): EntityState {
  const why = whyNotAllowed(today);
  return entity(child, "screen_time_allowed", onOff(why === undefined), why ? { why_not: why } : {});
}

/**
 * Why the child may not use screens now, or undefined when she may: the other household's day,
 * consumption not allowed today, then no minutes left (the last minute of a session can read 0
 * left while it still runs: allowed).
 */
export function whyNotAllowed(today: Today): WhyNot | undefined {
  if (!today.isMyDay) return "other_household_day";
  if (!today.consumableToday) return "not_consumable_today";
  if (today.minutesRemaining <= 0 && today.session?.running !== true) return "no_minutes_left";
  return undefined;
}

/**
 * Every entity of a child whose facts cannot be read, with the reason (in words, and as a kind an
 * automation can test), and when they were last read (null if never in this run).
 */
export function unavailableChildEntities(
  names: EntityNames,
  texts: Texts,
  child: ChildIdentity,
  reason: UnavailableReason,
  lastReadAt?: number,
  last?: LastFigures,
): EntityState[] {
  const attributes = {
    reason: texts.reasons[reason],
    reason_kind: reason,
    last_read: lastReadAt ? isoTime(lastReadAt) : null,
    ...(last ? { last_figures: last } : {}),
  };
  return childEntityKinds.map((kind) => entity({ names, texts, child }, kind, "unavailable", attributes));
}

/**
 * What a voice answer needs of a child's last reading, kept on her unavailable entities (REST) or
 * her read status (MQTT, where an unavailable entity shows no attributes): so that "How many
 * minutes does Léa have left?" can still be answered with the last figure and its time, saying
 * why it is not newer (parts/assist-answers-config.ts).
 */
export interface LastFigures {
  my_day: boolean;
  minutes: string;
  session: boolean;
  ends: string;
  streak: string;
  allowed: boolean;
  why_not: WhyNot | null;
}

export function lastFigures(today: Today): LastFigures {
  const session = today.isMyDay && today.session?.running === true;
  const endsAt =
    session && today.isMyDay && today.session?.endsAt ? withOffset(today.session.endsAt) : undefined;
  const why = whyNotAllowed(today);
  return {
    my_day: today.isMyDay,
    minutes: today.isMyDay ? String(today.minutesRemaining) : "0",
    session,
    ends: endsAt ?? UNKNOWN,
    streak: today.isMyDay ? String(today.streakDays) : UNKNOWN,
    allowed: why === undefined,
    why_not: why ?? null,
  };
}

/** The status while the entities cannot be published at all (the MQTT broker refused the bridge). */
export function refusedStatusEntity(names: EntityNames, texts: Texts, reason: string): EntityState {
  return {
    entityId: names.status,
    state: "broker_refused",
    attributes: {
      message: texts.status.broker_refused,
      last_error: reason.slice(0, MAX_STATE_LENGTH),
      friendly_name: texts.bridge.status,
      icon: statusDefinition.icon,
    },
  };
}

/** The bridge's own status sensor. `haDegraded` is the publisher's own judgement. */
export function statusEntity(
  names: EntityNames,
  texts: Texts,
  status: EngineStatus,
  haDegraded = false,
): EntityState {
  const state: BridgeState | "ha_degraded" =
    haDegraded && status.state === "ok" ? "ha_degraded" : status.state;
  return {
    entityId: names.status,
    state,
    attributes: {
      message: texts.status[state],
      requests_last_minute: status.requestsLastMinute,
      budget_per_minute: status.budgetPerMinute,
      demand_per_minute: status.demandPerMinute,
      interval_stretch: status.stretch,
      today_interval_stretch: status.todayStretch,
      children: status.children.map((c) => c.firstName),
      rate_limited_count: status.rateLimitedCount,
      last_error: status.lastError?.slice(0, MAX_STATE_LENGTH) ?? null,
      last_turn: status.lastTurnAt ? isoTime(status.lastTurnAt) : null,
      friendly_name: texts.bridge.status,
      icon: statusDefinition.icon,
    },
  };
}
