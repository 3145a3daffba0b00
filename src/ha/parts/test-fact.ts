import { localDateOf } from "../../time/zoned.js";
import type { ChildIdentity } from "../entities/entities.js";

/**
 * The bus event's data of a test fact, made when a parent presses a child's test fact button: a
 * cheer (`bravo`), so that the automations made from the blueprints (celebrate, first of all) run
 * as they will for a real one, marked `test: true` so that any automation can tell it apart. It is
 * never in the app's journal, never recorded as delivered, never fired again, never counted. Pure.
 */
export function testFactData(
  child: ChildIdentity,
  now: number,
  timeZone: string | undefined,
): Record<string, unknown> {
  const at = new Date(now).toISOString();
  return {
    type: "cheer_sent",
    test: true,
    derived: false,
    // Unlike any id of the app's journal or of a derived fact: a test's own, one per press.
    event_id: `test_${child.id}_${now}`,
    child_id: child.id,
    at,
    day: localDateOf(now, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone),
    child: child.slug,
    child_name: child.firstName,
    age_seconds: 0,
    replayed: false,
    redelivered: false,
    cheer: "bravo",
  };
}
