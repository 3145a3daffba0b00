import type { ApiEvent } from "../api/schemas.js";
import type { Period } from "./calendar.js";
import { type ChildRules, isConsumable, menuMinutesOf, minutesUnlockedFor } from "./rules.js";

/** A fact of the journal with its recorded instant as a number (the API's `at`). */
export interface TimedEvent {
  recordedAt: number;
  event: ApiEvent;
}

/** A child's day as its facts make it at one instant: what today shows and what plans check. */
export interface Ledger {
  points: number;
  validatedBehaviorIds: ReadonlySet<string>;
  minutesUnlocked: number;
  minutesConsumed: number;
  minutesRemaining: number;
  mandatoryOk: boolean;
  perfect: boolean;
  consumable: boolean;
  /** Started minutes of all sessions of the day; undefined when none started. */
  sessionMinutes: number | undefined;
  /** End of the session in progress, if one runs. */
  runningUntil: number | undefined;
}

/**
 * Sums the day's facts recorded up to `now`. A known behavior counts once however often it is
 * validated; a session consumes its minutes as time passes, a menu item its cost at once.
 */
export function ledgerAt(
  rules: ChildRules,
  period: Period,
  facts: readonly TimedEvent[],
  now: number,
  frozen = false,
): Ledger {
  const validated = new Set<string>();
  let adHocPoints = 0;
  let consumed = 0;
  let sessionMinutes: number | undefined;
  let runningUntil: number | undefined;
  for (const { recordedAt, event } of facts) {
    if (recordedAt > now) continue;
    switch (event.type) {
      case "behavior_validated":
        if (event.behaviorId !== null && rules.behaviors.some((b) => b.id === event.behaviorId)) {
          validated.add(event.behaviorId);
        } else {
          adHocPoints += 1;
        }
        break;
      case "session_started": {
        const minutes = Math.max(0, event.minutes);
        const ends = recordedAt + minutes * 60_000;
        consumed += Math.min(minutes, Math.floor((now - recordedAt) / 60_000));
        sessionMinutes = (sessionMinutes ?? 0) + minutes;
        if (ends > now) runningUntil = Math.max(runningUntil ?? 0, ends);
        break;
      }
      case "menu_item_consumed":
        consumed += menuMinutesOf(rules, event.menuItemId);
        break;
      case "cheer_sent":
        break;
    }
  }
  const points = adHocPoints + rules.behaviors.reduce((s, b) => s + (validated.has(b.id) ? b.points : 0), 0);
  const unlocked = minutesUnlockedFor(points, rules);
  const mandatoryOk = rules.behaviors.every((b) => !b.mandatory || validated.has(b.id));
  return {
    points,
    validatedBehaviorIds: validated,
    minutesUnlocked: unlocked,
    minutesConsumed: consumed,
    minutesRemaining: Math.max(0, unlocked - consumed),
    mandatoryOk,
    perfect: rules.behaviors.every((b) => validated.has(b.id)),
    consumable: isConsumable(period, mandatoryOk, frozen),
    sessionMinutes,
    runningUntil,
  };
}
