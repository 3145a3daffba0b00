import type { BehaviorStatus, Today } from "../api/schemas.js";
import { type DerivedFact, type DerivedFactType, derivedFactId } from "./derived-facts.js";
import { type BridgeTimeOf, sameInstant } from "./fact-age.js";

// What changed between two readings of a child's today, as facts a parent acts on. Pure: the
// previous reading comes in (as the snapshot kept of it), the facts and the new snapshot go out.
//
// A fact needs two readings of the same household day that differ: the first reading of a run
// with nothing kept before, a CalmDay (the other household's day) and a reading of a new day
// yield none but `day_started`, which needs a reading of an earlier day before it. A reading that
// goes backwards (a behavior back to todo, points or the essentials undone) yields nothing, and
// says so (`backwards`), so that the caller can log it once.

/** What derivation keeps of a reading: enough to compare the next one with. */
export interface Snapshot {
  date: string;
  isMyDay: boolean;
  /** When it was read (epoch ms). */
  readAt: number;
  points?: number;
  minutesRemaining?: number;
  minutesUnlocked?: number;
  mandatoryOk?: boolean;
  perfect?: boolean;
  streakDays?: number;
  nextTierPointsNeeded?: number | null;
  nextTierUnitsGain?: number | null;
  behaviors?: Record<string, BehaviorStatus>;
  running?: boolean;
  endsAt?: string | null;
}

/** Derivation's memory of a child: the last reading, and the sessions started on its day. */
export interface DerivationState {
  last: Snapshot | null;
  /** Sessions seen starting on `last.date`: a session's number makes minutes_low's subject. */
  sessions: number;
  /**
   * The latest household day a reading showed (`last.date` when absent, as kept by an earlier
   * version): a day starts once, whatever the dates read after it do (a date that jumps back and
   * ahead again mid-day).
   */
  latestDay?: string;
}

export const noDerivationState: DerivationState = { last: null, sessions: 0 };

export interface DerivationOptions {
  /** Minutes remaining at which `minutes_low` fires, once each per session (10 and 5 by default). */
  minutesLowThresholds: readonly number[];
  /** The API's instants on the bridge's clock, which dates derived facts (engine.ts). */
  bridgeTimeOf?: BridgeTimeOf;
}

/** A change that went the wrong way, which no fact is made of. */
export type Backwards = "behavior_undone" | "points_down" | "mandatory_undone" | "perfect_undone";

export interface Derivation {
  facts: DerivedFact[];
  state: DerivationState;
  backwards: Backwards[];
}

export function snapshotOf(today: Today, readAt: number): Snapshot {
  if (!today.isMyDay) return { date: today.date, isMyDay: false, readAt };
  const session = today.session ?? null;
  return {
    date: today.date,
    isMyDay: true,
    readAt,
    points: today.points,
    minutesRemaining: today.minutesRemaining,
    minutesUnlocked: today.minutesUnlocked,
    mandatoryOk: today.mandatoryOk,
    perfect: today.perfect,
    streakDays: today.streakDays,
    nextTierPointsNeeded: today.nextTier?.pointsNeeded ?? null,
    nextTierUnitsGain: today.nextTier?.unitsGain ?? null,
    behaviors: Object.fromEntries(today.behaviors.map((b) => [b.id, b.status])),
    running: session?.running === true,
    endsAt: session?.endsAt ?? null,
  };
}

/** The facts `today` (read at `readAt`) shows since the reading `state` kept, and what to keep now. */
export function derive(
  childId: string,
  state: DerivationState,
  today: Today,
  readAt: number,
  options: DerivationOptions,
): Derivation {
  const snapshot = snapshotOf(today, readAt);
  const previous = state.last;
  const sameDay = previous !== null && previous.date === snapshot.date;
  const sessions = sameDay ? state.sessions : 0;
  const latestBefore = state.latestDay ?? previous?.date;
  // Dates as the API writes them (YYYY-MM-DD) order as strings do.
  const latestDay = latestBefore !== undefined && latestBefore > snapshot.date ? latestBefore : snapshot.date;
  const next: DerivationState = { last: snapshot, sessions, latestDay };
  const none: Derivation = { facts: [], state: next, backwards: [] };
  if (!today.isMyDay || previous === null) return none;
  const at = new Date(readAt).toISOString();
  const fact = <T extends DerivedFactType>(type: T, subject: string, extra: object, when = at) =>
    ({
      derived: true,
      type,
      id: derivedFactId(childId, today.date, type, subject),
      childId,
      day: today.date,
      at: when,
      ...extra,
    }) as DerivedFact;

  if (!sameDay) {
    // A date read before, or earlier than one read before: no new day, and nothing to compare.
    if (latestBefore !== undefined && snapshot.date <= latestBefore) return none;
    // The household's first reading of a new own day (after an earlier day, own or the other's).
    return {
      ...none,
      facts: [
        fact("day_started", today.date, { period: today.period, minutesUnlocked: today.minutesUnlocked }),
      ],
    };
  }
  if (!previous.isMyDay) return none;

  const facts: DerivedFact[] = [];
  const backwards: Backwards[] = [];
  for (const behavior of today.behaviors) {
    const before = previous.behaviors?.[behavior.id] ?? "todo";
    if (before === behavior.status) continue;
    const about = { behaviorId: behavior.id, label: behavior.label, mandatory: behavior.mandatory };
    if (behavior.status === "declared") facts.push(fact("behavior_declared", behavior.id, about));
    else if (behavior.status === "rejected") facts.push(fact("behavior_rejected", behavior.id, about));
    else if (behavior.status === "todo") backwards.push("behavior_undone");
  }

  const running = snapshot.running === true;
  const wasRunning = previous.running === true;
  if (running && !wasRunning) next.sessions = sessions + 1;
  if (running) {
    const before = previous.minutesRemaining ?? Number.POSITIVE_INFINITY;
    for (const threshold of [...options.minutesLowThresholds].sort((a, b) => b - a)) {
      if (before > threshold && today.minutesRemaining <= threshold)
        facts.push(
          fact("minutes_low", `s${next.sessions}-${threshold}`, {
            minutesRemaining: today.minutesRemaining,
            threshold,
          }),
        );
    }
  }
  if (wasRunning && !running) {
    // When it ended: the end the previous reading announced (on the bridge's clock, as the
    // reading's time is), once passed; else this reading.
    const announced = (options.bridgeTimeOf ?? sameInstant)(Date.parse(previous.endsAt ?? ""));
    const ended = Number.isFinite(announced) && announced <= readAt ? new Date(announced).toISOString() : at;
    facts.push(
      fact(
        "session_ended",
        `s${Math.max(sessions, 1)}`,
        { sessionMinutes: today.session?.minutes ?? null },
        ended,
      ),
    );
  }

  if (today.mandatoryOk && previous.mandatoryOk === false) facts.push(fact("mandatory_done", "day", {}));
  if (!today.mandatoryOk && previous.mandatoryOk === true) backwards.push("mandatory_undone");
  if (today.perfect && previous.perfect === false) facts.push(fact("perfect_day", "day", {}));
  if (!today.perfect && previous.perfect === true) backwards.push("perfect_undone");

  const previousStreak = previous.streakDays ?? today.streakDays;
  if (today.streakDays > previousStreak)
    facts.push(
      fact("streak_extended", String(today.streakDays), { streak: today.streakDays, previousStreak }),
    );
  else if (today.streakDays < previousStreak)
    facts.push(fact("streak_broken", String(previousStreak), { streak: today.streakDays, previousStreak }));

  const previousPoints = previous.points ?? today.points;
  if (today.points < previousPoints) backwards.push("points_down");
  const needed = previous.nextTierPointsNeeded;
  if (needed !== null && needed !== undefined && needed > 0 && today.points >= previousPoints + needed) {
    const reached = previousPoints + needed;
    const unitsGain = previous.nextTierUnitsGain ?? 0;
    facts.push(fact("next_tier_reached", String(reached), { points: today.points, unitsGain }));
  }
  return { facts, state: next, backwards };
}
