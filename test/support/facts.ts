import type { CalmDay, TodayPayload } from "../../src/api/schemas.js";
import type { FactDelivery } from "../../src/engine/sink.js";

// Today answers as the API gives them, and a journal fact on its way, for tests of what is made
// of them.

/** A day of this household: a session running, one mandatory behavior still declared. */
export const sampleToday: TodayPayload = {
  date: "2026-11-21",
  isMyDay: true,
  period: "weekend",
  points: 7,
  maxPoints: 12,
  minutesUnlocked: 45,
  minutesConsumed: 20,
  minutesRemaining: 25,
  consumableToday: true,
  mandatoryOk: false,
  perfect: false,
  frozen: false,
  joker: true,
  nextTier: { pointsNeeded: 3, unitsGain: 15 },
  behaviors: [
    { id: "b1", label: "Make the bed", status: "validated", mandatory: true },
    { id: "b2", label: "Homework", status: "declared", mandatory: true },
    { id: "b3", label: "Set the table", status: "todo", mandatory: false },
  ],
  session: { running: true, endsAt: "2026-11-21T17:30:00.000Z", minutes: 20 },
  streakDays: 4,
};

/** A day of the other household (independent shared custody). */
export const sampleCalmDay: CalmDay = { date: "2026-11-22", isMyDay: false };

/** A cheer of `childId`'s journal on its way to Home Assistant, sent for the first time. */
export function sampleDelivery(childId: string, id: string, lastReceipt?: string): FactDelivery {
  return {
    event: {
      type: "cheer_sent",
      id,
      childId,
      at: "2026-11-23T18:00:00.000Z",
      day: "2026-11-23",
      cheer: "bravo",
    },
    ageSeconds: 1,
    replayed: false,
    inDoubt: false,
    lastReceipt,
    uncertain: false,
  };
}

/** A fact derived from `childId`'s day (a behavior she declared) on its way to Home Assistant. */
export function sampleDerivedDelivery(childId: string, id: string, lastReceipt?: string): FactDelivery {
  return {
    event: {
      derived: true,
      type: "behavior_declared",
      id,
      childId,
      at: "2026-11-23T18:00:00.000Z",
      day: "2026-11-23",
      behaviorId: "b2",
      label: "Homework",
      mandatory: true,
    },
    ageSeconds: 1,
    replayed: false,
    inDoubt: false,
    lastReceipt,
    uncertain: false,
  };
}
