import { beforeAll, beforeEach, vi } from "vitest";
import { oneDayAhead } from "./household-days.js";

/*
 * A setup file of every suite: no suite or test on the real clock begins in the last minute of the
 * household's day (Europe/Paris, the suites' zone and the simulator's default). A bridge that
 * starts without a cursor reads from the start of the day of its first poll, as the API asks, so a
 * fact a test records a moment before a fresh bridge's first poll is never read when midnight
 * falls in between: the design, not a loss. A test that began a minute before midnight met that
 * (a data directory refusing writes held the first poll back 6 s; the fact went in the journal
 * before midnight, the first poll came after; seen on a clock run across midnight in an audit).
 * Such a suite or test waits for the new day, once a run at most; virtual time owns its clock.
 */

const HOUSEHOLD_TIME_ZONE = "Europe/Paris";
/** Longer than any test's set-up before its first bridge's first poll, on a loaded machine. */
const FIRST_MINUTE_MS = 60_000;

async function notInTheDaysLastMinute(): Promise<void> {
  if (!vi.isFakeTimers()) await oneDayAhead(HOUSEHOLD_TIME_ZONE, FIRST_MINUTE_MS);
}

// Before a file's own set-up (which may start a bridge and record facts), and before each test.
beforeAll(notInTheDaysLastMinute, FIRST_MINUTE_MS + 10_000);
beforeEach(notInTheDaysLastMinute, FIRST_MINUTE_MS + 10_000);
