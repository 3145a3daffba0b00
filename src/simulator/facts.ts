import type { ApiEvent } from "../api/schemas.js";
import type { SimChild } from "./household.js";
import { localDateOf } from "./zoned-time.js";

export type Cheer = "bravo" | "super" | "seen";
export const cheers: readonly Cheer[] = ["bravo", "super", "seen"];

/**
 * What a test (or the day plan) says happened; the rest of the event (id, at, day, childId) is
 * filled in. A known behaviorId or menuItemId brings its label unless one is given.
 */
export type FactFields =
  | { type: "behavior_validated"; behaviorId?: string | null; label?: string | null }
  | { type: "session_started"; minutes?: number }
  | { type: "menu_item_consumed"; menuItemId?: string | null; label?: string | null }
  | { type: "cheer_sent"; cheer?: Cheer };

export type FactType = FactFields["type"];

/** The event as the API serves it: `at` in UTC, `day` the household's local date. */
export function buildEvent(
  child: SimChild,
  id: string,
  recordedAt: number,
  timeZone: string,
  fields: FactFields,
): ApiEvent {
  const common = {
    id,
    at: new Date(recordedAt).toISOString(),
    day: localDateOf(recordedAt, timeZone),
    childId: child.id,
  };
  switch (fields.type) {
    case "behavior_validated": {
      const behaviorId = fields.behaviorId ?? null;
      const known = child.rules.behaviors.find((b) => b.id === behaviorId);
      return { ...common, type: fields.type, behaviorId, label: labelOf(fields.label, known?.label) };
    }
    case "session_started":
      return { ...common, type: fields.type, minutes: Math.max(0, Math.round(fields.minutes ?? 15)) };
    case "menu_item_consumed": {
      const menuItemId = fields.menuItemId ?? null;
      const known = child.rules.menu.find((m) => m.id === menuItemId);
      return { ...common, type: fields.type, menuItemId, label: labelOf(fields.label, known?.label) };
    }
    case "cheer_sent":
      return { ...common, type: fields.type, cheer: fields.cheer ?? "bravo" };
  }
}

function labelOf(given: string | null | undefined, known: string | undefined): string | null {
  return given === undefined ? (known ?? null) : given;
}
