import { periodOf } from "./calendar.js";
import { buildEvent, cheers, type FactFields } from "./facts.js";
import { isOwnDay, type SimChild } from "./household.js";
import { ledgerAt, type TimedEvent } from "./ledger.js";
import { compareKeys, keyOfTimed } from "./ordering.js";
import { Rng, uuidFrom } from "./random.js";
import { type LocalDate, localDayEndMs, localDayStartMs } from "./zoned-time.js";

/** When a behavior was declared or rejected in the app; validations are journal facts. */
export interface BehaviorTimeline {
  declaredAt?: number;
  rejectedAt?: number;
}

/** What the automatic activity makes happen to a child on one date. */
export interface DayPlan {
  date: LocalDate;
  /** Ordered by (recordedAt, id). */
  facts: readonly TimedEvent[];
  timelines: ReadonlyMap<string, BehaviorTimeline>;
  /** A joker keeps the streak alive on a day whose essentials were not done. */
  joker: boolean;
}

export interface PlanSettings {
  seed: number;
  timeZone: string;
  /** Extra cheers per hour, for high-volume runs; may be fractional. */
  factsPerHour: number;
}

interface RewardCandidate {
  at: number;
  reward: { kind: "session"; minutes: number } | { kind: "menu"; index: number };
}

const minute = 60_000;
const sessionLengths = [10, 15, 20, 30] as const;

/**
 * A pure function of (seed, child, date): the journal at an instant is the plan's facts recorded
 * by then, so a test or a demo can replay any moment. Rewards are only taken when the facts
 * before them allow it (the minutes are there, the day is consumable, no session runs).
 */
export function planDay(child: SimChild, date: LocalDate, settings: PlanSettings): DayPlan {
  if (!child.planned || !isOwnDay(child, date)) {
    return { date, facts: [], timelines: new Map(), joker: false };
  }
  const { seed, timeZone } = settings;
  const rng = Rng.of(seed, "plan", child.key, date);
  const start = localDayStartMs(date, timeZone);
  const at = (minuteOfDay: number) => start + minuteOfDay * minute + rng.int(0, minute - 1);
  const period = periodOf(date);
  const facts: TimedEvent[] = [];
  const timelines = new Map<string, BehaviorTimeline>();
  const push = (recordedAt: number, fields: FactFields, ...idParts: (string | number)[]) => {
    const id = uuidFrom(seed, child.key, date, ...idParts);
    facts.push({ recordedAt, event: buildEvent(child, id, recordedAt, timeZone, fields) });
  };

  for (const behavior of child.rules.behaviors) {
    const roll = rng.next();
    const resolvedAt = at(rng.int(7 * 60, 19 * 60 + 30));
    const declaredAt = resolvedAt - rng.int(5, 90) * minute;
    if (roll < 0.72) {
      timelines.set(behavior.id, { declaredAt });
      push(resolvedAt, { type: "behavior_validated", behaviorId: behavior.id }, "behavior", behavior.id);
    } else if (roll < 0.82) {
      timelines.set(behavior.id, { declaredAt, rejectedAt: resolvedAt });
    } else if (roll < 0.9) {
      timelines.set(behavior.id, { declaredAt });
    }
  }
  const joker = rng.chance(0.04);
  const cheerCount = rng.int(0, 3);
  for (let i = 0; i < cheerCount; i++) {
    push(at(rng.int(7 * 60, 21 * 60)), { type: "cheer_sent", cheer: rng.pick(cheers) }, "cheer", i);
  }

  const candidates: RewardCandidate[] = [];
  if (rng.chance(0.6)) {
    const index = rng.int(0, child.rules.menu.length - 1);
    candidates.push({ at: at(rng.int(12 * 60, 20 * 60)), reward: { kind: "menu", index } });
  }
  const sessionCount = rng.int(1, 2);
  for (let i = 0; i < sessionCount; i++) {
    const from = period === "school" ? 16 * 60 + 30 : 10 * 60;
    candidates.push({
      at: at(rng.int(from, 20 * 60 + 30)),
      reward: { kind: "session", minutes: rng.pick(sessionLengths) },
    });
  }
  candidates.sort((a, b) => a.at - b.at);
  candidates.forEach(({ at: when, reward }, i) => {
    const ledger = ledgerAt(child.rules, period, facts, when);
    if (!ledger.consumable || ledger.runningUntil !== undefined) return;
    if (reward.kind === "menu") {
      const item = child.rules.menu[reward.index];
      if (item && ledger.minutesRemaining >= item.minutes) {
        push(when, { type: "menu_item_consumed", menuItemId: item.id }, "menu", i);
      }
      return;
    }
    const minutes = Math.min(reward.minutes, Math.floor(ledger.minutesRemaining / 5) * 5);
    if (minutes >= 5) push(when, { type: "session_started", minutes }, "session", i);
  });

  addExtraCheers(child, date, settings, start, push);
  facts.sort((a, b) => compareKeys(keyOfTimed(a), keyOfTimed(b)));
  return { date, facts, timelines, joker };
}

function addExtraCheers(
  child: SimChild,
  date: LocalDate,
  settings: PlanSettings,
  start: number,
  push: (recordedAt: number, fields: FactFields, ...idParts: (string | number)[]) => void,
): void {
  if (!(settings.factsPerHour > 0)) return;
  const rng = Rng.of(settings.seed, "extra", child.key, date);
  const hours = Math.round((localDayEndMs(date, settings.timeZone) - start) / 3_600_000);
  const whole = Math.floor(settings.factsPerHour);
  const fraction = settings.factsPerHour - whole;
  let n = 0;
  for (let hour = 0; hour < hours; hour++) {
    const count = whole + (rng.chance(fraction) ? 1 : 0);
    for (let i = 0; i < count; i++) {
      const when = start + hour * 3_600_000 + rng.int(0, 3_600_000 - 1);
      push(when, { type: "cheer_sent", cheer: rng.pick(cheers) }, "extra", n++);
    }
  }
}
