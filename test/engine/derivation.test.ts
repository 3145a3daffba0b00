import { describe, expect, it } from "vitest";
import type { Behavior, Today, TodayPayload } from "../../src/api/schemas.js";
import { type DerivationState, derive, noDerivationState, snapshotOf } from "../../src/engine/derivation.js";

// Pairs of readings of one child's today, and the facts a parent acts on that they show. The
// previous reading is kept as derivation keeps it (snapshotOf); the second is read 60 s later.

const CHILD = "7f3c2a10-0000-4000-8000-000000000001";
const T0 = Date.parse("2026-11-21T15:00:00Z");
const T1 = T0 + 60_000;
const options = { minutesLowThresholds: [10, 5] };

const behaviors: Behavior[] = [
  { id: "teeth", label: "Se brosser les dents", status: "validated", mandatory: true },
  { id: "homework", label: "Faire ses devoirs", status: "todo", mandatory: true },
  { id: "room", label: "Ranger sa chambre", status: "todo", mandatory: false },
];

const day: TodayPayload = {
  date: "2026-11-21",
  isMyDay: true,
  period: "weekend",
  points: 3,
  maxPoints: 8,
  minutesUnlocked: 45,
  minutesConsumed: 10,
  minutesRemaining: 35,
  consumableToday: true,
  mandatoryOk: false,
  perfect: false,
  frozen: false,
  joker: false,
  nextTier: { pointsNeeded: 2, unitsGain: 15 },
  behaviors,
  session: null,
  streakDays: 4,
};
const calm: Today = { date: "2026-11-21", isMyDay: false };

const running = (minutesRemaining: number, endsAt = "2026-11-21T15:30:00Z") => ({
  ...day,
  minutesRemaining,
  session: { running: true, endsAt, minutes: 20 },
});
const withBehavior = (id: string, status: Behavior["status"]) => ({
  ...day,
  behaviors: behaviors.map((b) => (b.id === id ? { ...b, status } : b)),
});
const kept = (before: Today, sessions = 0): DerivationState => ({ last: snapshotOf(before, T0), sessions });

/** The facts, as `type:subject @at` plus their data, for a compact table. */
function factsBetween(before: DerivationState, now: Today, readAt = T1) {
  const { facts, backwards } = derive(CHILD, before, now, readAt, options);
  return {
    facts: facts.map(({ id, childId, derived, day: factDay, ...rest }) => {
      expect(derived).toBe(true);
      expect(childId).toBe(CHILD);
      expect(id).toBe(`derived:${CHILD}:${factDay}:${rest.type}:${id.split(":").slice(4).join(":")}`);
      return { subject: id.split(":").slice(4).join(":"), ...rest };
    }),
    backwards,
  };
}

const at1 = new Date(T1).toISOString();

describe("facts worked out from two readings of a day", () => {
  it.each<[string, DerivationState, Today, unknown[], string[]?]>([
    [
      "nothing kept before (a first start): none",
      noDerivationState,
      withBehavior("homework", "declared"),
      [],
    ],
    ["the same reading twice: none", kept(day), day, []],
    [
      "a behavior declared: the parent should validate it in the app",
      kept(day),
      withBehavior("homework", "declared"),
      [
        {
          subject: "homework",
          type: "behavior_declared",
          at: at1,
          behaviorId: "homework",
          label: "Faire ses devoirs",
          mandatory: true,
        },
      ],
    ],
    [
      "a declared behavior rejected",
      kept(withBehavior("room", "declared")),
      withBehavior("room", "rejected"),
      [
        {
          subject: "room",
          type: "behavior_rejected",
          at: at1,
          behaviorId: "room",
          label: "Ranger sa chambre",
          mandatory: false,
        },
      ],
    ],
    [
      "a declared behavior validated: the journal's fact, none derived",
      kept(withBehavior("room", "declared")),
      withBehavior("room", "validated"),
      [],
    ],
    [
      "a behavior back to todo: none, said as backwards",
      kept(withBehavior("room", "declared")),
      withBehavior("room", "todo"),
      [],
      ["behavior_undone"],
    ],
    [
      "minutes remaining crossing 10 during a session",
      kept(running(12), 1),
      running(9),
      [{ subject: "s1-10", type: "minutes_low", at: at1, minutesRemaining: 9, threshold: 10 }],
    ],
    [
      "crossing both thresholds at once: one fact each, the higher first",
      kept(running(12), 2),
      running(4),
      [
        { subject: "s2-10", type: "minutes_low", at: at1, minutesRemaining: 4, threshold: 10 },
        { subject: "s2-5", type: "minutes_low", at: at1, minutesRemaining: 4, threshold: 5 },
      ],
    ],
    ["below a threshold already: none again", kept(running(9), 1), running(8), []],
    [
      "minutes low with no session running: none",
      kept({ ...day, minutesRemaining: 12 }),
      { ...day, minutesRemaining: 8 },
      [],
    ],
    [
      "the session ended: at the end it announced",
      kept(running(5, "2026-11-21T15:00:30Z"), 1),
      { ...day, minutesRemaining: 5, session: { running: false, endsAt: null, minutes: 40 } },
      [{ subject: "s1", type: "session_ended", at: "2026-11-21T15:00:30.000Z", sessionMinutes: 40 }],
    ],
    [
      "the session stopped before its end: at this reading",
      kept(running(5, "2026-11-21T16:00:00Z"), 1),
      { ...day, session: { running: false, minutes: 30 } },
      [{ subject: "s1", type: "session_ended", at: at1, sessionMinutes: 30 }],
    ],
    [
      "the essentials done",
      kept(day),
      { ...day, mandatoryOk: true },
      [{ subject: "day", type: "mandatory_done", at: at1 }],
    ],
    [
      "a perfect day",
      kept({ ...day, mandatoryOk: true }),
      { ...day, mandatoryOk: true, perfect: true },
      [{ subject: "day", type: "perfect_day", at: at1 }],
    ],
    [
      "the essentials undone: none, said as backwards",
      kept({ ...day, mandatoryOk: true }),
      day,
      [],
      ["mandatory_undone"],
    ],
    [
      "the streak extended",
      kept(day),
      { ...day, streakDays: 5 },
      [{ subject: "5", type: "streak_extended", at: at1, streak: 5, previousStreak: 4 }],
    ],
    [
      "the streak broken",
      kept(day),
      { ...day, streakDays: 0 },
      [{ subject: "4", type: "streak_broken", at: at1, streak: 0, previousStreak: 4 }],
    ],
    [
      "the next tier reached",
      kept(day),
      { ...day, points: 5, nextTier: { pointsNeeded: 3, unitsGain: 15 } },
      [{ subject: "5", type: "next_tier_reached", at: at1, points: 5, unitsGain: 15 }],
    ],
    [
      "points up, short of the tier: none",
      kept(day),
      { ...day, points: 4, nextTier: { pointsNeeded: 1, unitsGain: 15 } },
      [],
    ],
    ["points down: none, said as backwards", kept(day), { ...day, points: 1 }, [], ["points_down"]],
    [
      "a new own day after an earlier one",
      kept({ ...day, date: "2026-11-20" }),
      day,
      [{ subject: "2026-11-21", type: "day_started", at: at1, period: "weekend", minutesUnlocked: 45 }],
    ],
    [
      "a new own day after the other household's days",
      kept({ date: "2026-11-19", isMyDay: false }),
      withBehavior("homework", "declared"),
      [{ subject: "2026-11-21", type: "day_started", at: at1, period: "weekend", minutesUnlocked: 45 }],
    ],
    ["a CalmDay: none", kept(day), calm, []],
    [
      "an own day after a CalmDay of the same date (custody changed mid-day): none",
      kept(calm),
      withBehavior("homework", "declared"),
      [],
    ],
    [
      "a day that changes mid-session: the new day's start, no end invented",
      kept({ ...running(30), date: "2026-11-20" }, 1),
      running(25),
      [{ subject: "2026-11-21", type: "day_started", at: at1, period: "weekend", minutesUnlocked: 45 }],
    ],
  ])("%s", (_what, before, now, facts, backwards = []) => {
    expect(factsBetween(before, now)).toEqual({ facts, backwards });
  });

  it("starts each household day once, whatever the dates read do mid-day", () => {
    const read = (state: DerivationState, date: string, at: number) =>
      derive(CHILD, state, { ...day, date }, at, options);
    // Saturday, then a reading that says Sunday, Saturday again, and Sunday again.
    const saturday = read(kept({ ...day, date: "2026-11-20" }), "2026-11-21", T1);
    const ahead = read(saturday.state, "2026-11-22", T1 + 60_000);
    const back = read(ahead.state, "2026-11-21", T1 + 120_000);
    const aheadAgain = read(back.state, "2026-11-22", T1 + 180_000);
    const monday = read(aheadAgain.state, "2026-11-23", T1 + 86_400_000);
    const started = [saturday, ahead, back, aheadAgain, monday].map((d) =>
      d.facts.filter((f) => f.type === "day_started").map((f) => f.day),
    );
    expect(started).toEqual([["2026-11-21"], ["2026-11-22"], [], [], ["2026-11-23"]]);
    // A reading of a day gone by neither starts it again nor compares it with the later one.
    expect(back.facts).toEqual([]);
    expect(back.state.latestDay).toBe("2026-11-22");
  });

  it("counts the day's sessions, so that each has its own thresholds", () => {
    const started = derive(CHILD, kept(day), running(12), T1, options);
    expect(started.state.sessions).toBe(1);
    const low = derive(CHILD, started.state, running(9), T1 + 60_000, options);
    expect(low.facts.map((f) => f.id.split(":").at(-1))).toEqual(["s1-10"]);
    const ended = derive(CHILD, low.state, { ...day, minutesRemaining: 9 }, T1 + 120_000, options);
    const again = derive(CHILD, ended.state, running(9), T1 + 180_000, options);
    expect(again.state.sessions).toBe(2);
    const lowAgain = derive(CHILD, again.state, running(4), T1 + 240_000, options);
    expect(lowAgain.facts.map((f) => f.id.split(":").at(-1))).toEqual(["s2-5"]);
    // A new day starts counting again.
    const tomorrow = derive(CHILD, lowAgain.state, { ...day, date: "2026-11-22" }, T1 + 86_400_000, options);
    expect(tomorrow.state.sessions).toBe(0);
  });

  it("gives the same fact the same id, whenever it is worked out", () => {
    const once = derive(CHILD, kept(day), withBehavior("homework", "declared"), T1, options);
    const again = derive(CHILD, kept(day), withBehavior("homework", "declared"), T1 + 30_000, options);
    expect(once.facts.map((f) => f.id)).toEqual(again.facts.map((f) => f.id));
    expect(once.facts[0]?.id).toBe(`derived:${CHILD}:2026-11-21:behavior_declared:homework`);
  });
});
