import type { BridgeTimeOf } from "../engine/fact-age.js";
import { localDateOf, offsetMsAt, ScaledClock, type SimClock } from "../simulator/index.js";
import type { TimeOfDay } from "./demo-args.js";

/**
 * The household lives in the user's own zone, so that "16:42" on screen reads as a local time and
 * the bridge, which takes the start of the day in the process's zone, agrees with the simulator
 * on when a day begins.
 */
export function householdTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** The instant at which today's (in `timeZone`, as of `now`) local clock reads `time`. */
export function todayAt(time: TimeOfDay, timeZone: string, now: number): number {
  const [year, month, day] = localDateOf(now, timeZone).split("-").map(Number) as [number, number, number];
  const wallAsUtc = Date.UTC(year, month - 1, day, time.hour, time.minute);
  // The offset of the instant sought, not of now: they differ on the days the clocks change.
  const guess = wallAsUtc - offsetMsAt(wallAsUtc, timeZone);
  return wallAsUtc - offsetMsAt(guess, timeZone);
}

/**
 * The simulated household's clock: from `startsAt` (householdStart: today at --start), running
 * `speed` times faster than real time.
 *
 * Why 60× from 16:00 by default: the demo household records about six facts a child a day, most
 * of them between 07:00 and 21:00. At one simulated hour per real minute the after-school evening
 * (sessions from 16:30, the last cheers by 21:00) plays out in five minutes, and the morning's
 * facts are already in the journal, so the first poll fills the screen. Faster would not be
 * coherent: a 10–30 minute session lasts 10–30 s here, just long enough for the bridge's today
 * readings (every 15 s, and right after each new fact) to see it run and its minutes go down;
 * at 120× most sessions would come and go between two readings.
 *
 * The date stays the real one: the bridge starts reading a journal from the start of the real
 * day (its own clock), so an earlier simulated date would show nothing until the simulated clock
 * reached today, and a later one would replay the days between. From there the simulated clock
 * runs ahead of the bridge's (run in the evening, it starts behind and overtakes it within
 * minutes). Where the bridge judges the API's times against its own clock (a fact's age, a stored
 * cursor, the announced end that dates `session_ended`), it reads them through
 * householdOnBridgeClock, below; it still plans the reading after a session's end on the raw
 * time, so an end it thinks far off only means that reading comes at the usual cadence. What
 * follows for the user: times on screen are the household's (the view draws with the simulated
 * clock and says so), except the derived facts', which the bridge dates by its own clock; a
 * session can end between two readings (the view then says "ended"), and at 60× the household's
 * day ends every 24 real minutes, when the shared-custody child changes household. In Home
 * Assistant the same times are simulated ones, ahead of its clock. The simulator's own rate limit counts by its clock too, so it is `speed`
 * times looser here: the bridge's budget, kept in real time, is the one the view shows at work.
 */
export function householdClock(speed: number, startsAt: number): ScaledClock {
  return new ScaledClock({ speed, start: startsAt });
}

/**
 * The household's instants on the bridge's (real) clock, by which the bridge judges how old a fact
 * is (`replayed`, `age_seconds`) and whether a cursor lies in the future. Read as they are, the
 * household's times are hours from the bridge's (its clock starts at --start, today, and runs
 * `speed` times faster): a fact of the demo's own time came out hours old, marked replayed, while
 * the household ran behind the real time, and every cursor lay in the future once it ran ahead.
 * From the household's start on, its time is brought back to real time, so a fact that happens
 * while the demo runs is as old as the real seconds since (its next poll's), at any speed; before
 * the start, its history keeps its distances (this morning's facts, read at the first poll, are
 * hours old: a catch-up, marked replayed as a real bridge's first start marks it).
 */
export function householdOnBridgeClock(
  household: SimClock,
  speed: number,
  startsAt: number,
  realNow: () => number = () => Date.now(),
): BridgeTimeOf {
  return (at) => {
    // Where the household's start lies on the real clock, from where both clocks stand now.
    const startedAt = realNow() - (household.now() - startsAt) / speed;
    return at >= startsAt ? startedAt + (at - startsAt) / speed : startedAt - (startsAt - at);
  };
}

/** How close to midnight a demo starts on the next day: more than its first poll ever takes. */
const NEXT_DAY_WITHIN_MS = 60_000;

/**
 * Where the household's clock starts for a demo started at `now`: today at `start`, or tomorrow in
 * the last minute of a day. The bridge's first poll, a moment after, reads from the start of the
 * real day as it is then; had the household kept the day ending, a poll that fell after midnight
 * would read from the next day, past all its facts, and the demo would show none for hours of
 * its time. From the next day, a poll either side of midnight reaches its facts.
 */
export function householdStart(start: TimeOfDay, timeZone: string, now: number): number {
  return todayAt(start, timeZone, now + NEXT_DAY_WITHIN_MS);
}
