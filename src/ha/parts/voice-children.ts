import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";

// What the bridge's voice items (assist-answers-config.ts, assist-summary-config.ts) know of each
// child: her first name and the ids of the entities their templates read. Pure.

export interface VoiceChild {
  name: string;
  minutes: string;
  session: string;
  ends: string;
  streak: string;
  points: string;
  behaviors: string;
  allowed: string;
  my_day: string;
  /** The entity whose `reason` and `reason_kind` say why she cannot be read (the mode decides). */
  reason: string;
}

export function voiceChildren(
  children: readonly ChildIdentity[],
  names: EntityNames,
  mode: "rest" | "mqtt",
): VoiceChild[] {
  return children.map((child) => ({
    name: child.firstName,
    minutes: names.child(child.slug, "minutes_remaining"),
    session: names.child(child.slug, "session_running"),
    ends: names.child(child.slug, "session_ends_at"),
    streak: names.child(child.slug, "streak"),
    points: names.child(child.slug, "points"),
    behaviors: names.child(child.slug, "behaviors"),
    allowed: names.child(child.slug, "screen_time_allowed"),
    my_day: names.child(child.slug, "my_day"),
    reason:
      mode === "mqtt"
        ? names.childExtra(child.slug, "read_status")
        : names.child(child.slug, "minutes_remaining"),
  }));
}

/**
 * A value a stored template reads as data: a Jinja string literal of its JSON, decoded by
 * `from_json`. Home Assistant renders every string of an automation or script as a template, and
 * a child's name is the family's words (a `{{` in it stays a `{{`).
 */
export function templateData(value: unknown): string {
  return `${JSON.stringify(JSON.stringify(value))} | from_json`;
}

/** Stale once older than three readings of her day. */
export const STALE_READINGS = 3;
