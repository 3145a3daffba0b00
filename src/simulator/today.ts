import type { Behavior, BehaviorStatus, Today } from "../api/schemas.js";
import { periodOf } from "./calendar.js";
import type { BehaviorTimeline } from "./day-plan.js";
import { isOwnDay, type SimChild } from "./household.js";
import type { Journal } from "./journal.js";
import { type Ledger, ledgerAt } from "./ledger.js";
import { maxPointsOf, nextTierFor } from "./rules.js";
import { addDays, type LocalDate, localDateOf } from "./zoned-time.js";

/** Longest streak looked for: a year of days is more than any demo runs. */
const STREAK_HORIZON_DAYS = 366;

/**
 * The today endpoint's answer at an instant. On the other household's day: a CalmDay with no
 * other field. Otherwise every figure comes from the day's journal facts, so the two endpoints
 * never disagree.
 */
export function computeToday(child: SimChild, now: number, journal: Journal, timeZone: string): Today {
  const date = localDateOf(now, timeZone);
  if (!isOwnDay(child, date)) return { date, isMyDay: false };
  const period = periodOf(date);
  const plan = journal.plan(child, date);
  const ledger = ledgerAt(child.rules, period, journal.dayFacts(child, date, now), now, child.frozen);
  const behaviors: Behavior[] = child.rules.behaviors.map((b) => ({
    id: b.id,
    label: b.label,
    status: statusAt(b.id, ledger, plan.timelines.get(b.id), now),
    mandatory: b.mandatory,
  }));
  return {
    date,
    isMyDay: true,
    period,
    points: ledger.points,
    maxPoints: maxPointsOf(child.rules),
    minutesUnlocked: ledger.minutesUnlocked,
    minutesConsumed: ledger.minutesConsumed,
    minutesRemaining: ledger.minutesRemaining,
    consumableToday: ledger.consumable,
    mandatoryOk: ledger.mandatoryOk,
    perfect: ledger.perfect,
    frozen: child.frozen,
    joker: plan.joker,
    nextTier: nextTierFor(ledger.points, child.rules),
    behaviors,
    session:
      ledger.sessionMinutes === undefined
        ? null
        : {
            running: ledger.runningUntil !== undefined,
            endsAt: ledger.runningUntil === undefined ? null : new Date(ledger.runningUntil).toISOString(),
            minutes: ledger.sessionMinutes,
          },
    streakDays: streakDays(child, date, ledger.mandatoryOk || plan.joker, journal),
  };
}

function statusAt(
  behaviorId: string,
  ledger: Ledger,
  timeline: BehaviorTimeline | undefined,
  now: number,
): BehaviorStatus {
  if (ledger.validatedBehaviorIds.has(behaviorId)) return "validated";
  if (timeline?.rejectedAt !== undefined && timeline.rejectedAt <= now) return "rejected";
  if (timeline?.declaredAt !== undefined && timeline.declaredAt <= now) return "declared";
  return "todo";
}

/**
 * Successful own days in a row before today (essentials done, or a joker played), plus today
 * once its essentials are done. Days of the other household neither count nor break it.
 */
function streakDays(child: SimChild, today: LocalDate, todayOk: boolean, journal: Journal): number {
  let streak = todayOk ? 1 : 0;
  let date = today;
  for (let i = 0; i < STREAK_HORIZON_DAYS; i++) {
    date = addDays(date, -1);
    if (!isOwnDay(child, date)) continue;
    const plan = journal.plan(child, date);
    const facts = journal.dayFacts(child, date, Number.POSITIVE_INFINITY);
    const ledger = ledgerAt(child.rules, periodOf(date), facts, Number.POSITIVE_INFINITY);
    if (!ledger.mandatoryOk && !plan.joker) break;
    streak++;
  }
  return streak;
}
