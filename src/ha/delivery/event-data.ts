import { isDerived } from "../../engine/derived-facts.js";
import type { FactDelivery } from "../../engine/sink.js";
import type { ChildIdentity } from "../entities/entities.js";

/** The bus event type of the contract; the bridge fires its EntityNames' eventType, once per fact. */
export { EVENT_TYPE } from "../entities/entity-names.js";

/**
 * The bus event's data for a fact, as the contract names it, and how late it is: `age_seconds`,
 * and `replayed` past the configured threshold (a catch-up after a first start or an outage, which
 * an announcement should skip). `derived` tells a fact worked out from today's readings from one
 * of the journal. `redelivered` is added by the delivery itself.
 */
export function eventData(
  child: ChildIdentity,
  { event, ageSeconds, replayed }: Pick<FactDelivery, "event" | "ageSeconds" | "replayed">,
): Record<string, unknown> {
  const common = {
    type: event.type,
    derived: isDerived(event),
    event_id: event.id,
    child_id: event.childId,
    at: event.at,
    day: event.day,
    child: child.slug,
    child_name: child.firstName,
    age_seconds: ageSeconds,
    replayed,
  };
  switch (event.type) {
    case "behavior_validated":
      return { ...common, behavior_id: event.behaviorId, label: event.label };
    case "session_started":
      return { ...common, minutes: event.minutes };
    case "menu_item_consumed":
      return { ...common, menu_item_id: event.menuItemId, label: event.label };
    case "cheer_sent":
      return { ...common, cheer: event.cheer };
    case "behavior_declared":
    case "behavior_rejected":
      return { ...common, behavior_id: event.behaviorId, label: event.label, mandatory: event.mandatory };
    case "minutes_low":
      return { ...common, minutes_remaining: event.minutesRemaining, threshold: event.threshold };
    case "session_ended":
      return { ...common, session_minutes: event.sessionMinutes };
    case "mandatory_done":
    case "perfect_day":
      return common;
    case "streak_extended":
    case "streak_broken":
      return { ...common, streak: event.streak, previous_streak: event.previousStreak };
    case "next_tier_reached":
      return { ...common, points: event.points, units_gain: event.unitsGain };
    case "day_started":
      return { ...common, period: event.period, minutes_unlocked: event.minutesUnlocked };
  }
}
