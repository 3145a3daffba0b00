import type { FactDelivery } from "../engine/sink.js";
import type { ChildIdentity } from "./entities.js";

/** The bus event type of the contract; the bridge fires its EntityNames' eventType, once per journal fact. */
export { EVENT_TYPE } from "./entity-names.js";

/**
 * The bus event's data for a journal fact, as the contract names it, and how late it is:
 * `age_seconds`, and `replayed` past the configured threshold (a catch-up after a first start or
 * an outage, which an announcement should skip). `redelivered` is added by the delivery itself.
 */
export function eventData(
  child: ChildIdentity,
  { event, ageSeconds, replayed }: Pick<FactDelivery, "event" | "ageSeconds" | "replayed">,
): Record<string, unknown> {
  const common = {
    type: event.type,
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
  }
}
