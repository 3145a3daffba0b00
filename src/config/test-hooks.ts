/*
 * What only tests set, through REWARD_FACTS_TEST_* variables that --help does not list and the
 * add-on's options cannot reach. Each bends one thing a test is not about, so that the test can
 * prove what it is about without waiting on the real clock for it.
 */

/** Where a delivery can be held, for a test to kill the bridge there (engine/fact-delivery.ts). */
export type TestPauseMoment = "after_claim" | "before_ack";

export interface TestHooks {
  /** REWARD_FACTS_TEST_PAUSE=<moment>:<ms>: a pause in each delivery, to kill the bridge there. */
  pause?: { moment: TestPauseMoment; ms: number };
  /** REWARD_FACTS_TEST_LEASE_SECONDS: how often the household lease is renewed (300 s). */
  leaseBeatMs?: number;
  /**
   * REWARD_FACTS_TEST_INTERVALS_MS=<events>,<today>[,<status>]: the polling intervals, below the
   * shortest a user may set (10 s and 15 s), and how often an unchanged status is published again
   * (60 s), so that a test waits seconds, not half a minute, for the next reading it is about. The
   * options' intervals still go through their own checks.
   */
  intervalsMs?: { events: number; today: number; status?: number };
  /**
   * REWARD_FACTS_TEST_API_LIMIT=<requests a minute>: what the API allows the token, which the
   * budget keeps under (30, the spec's); for a simulator that allows more, at the test's pace.
   */
  apiLimitPerMinute?: number;
  /**
   * REWARD_FACTS_TEST_REDELIVERY_WINDOW_MS: how long a fact Home Assistant answered may still be
   * owed after it died (30 s), so that a test of a fact answered before the window waits seconds.
   */
  redeliveryWindowMs?: number;
}

const positive = (text: string | undefined): number | undefined =>
  /^\d+$/.test(text ?? "") && Number(text) > 0 ? Number(text) : undefined;

/** The hooks the environment sets; a malformed value is no hook (tests set them, users never do). */
export function testHooksOf(env: Readonly<Record<string, string | undefined>>): TestHooks {
  const hooks: TestHooks = {};
  const pause = /^(after_claim|before_ack):(\d+)$/.exec(env.REWARD_FACTS_TEST_PAUSE ?? "");
  if (pause) hooks.pause = { moment: pause[1] as TestPauseMoment, ms: Number(pause[2]) };
  const leaseSeconds = positive(env.REWARD_FACTS_TEST_LEASE_SECONDS);
  if (leaseSeconds) hooks.leaseBeatMs = leaseSeconds * 1000;
  const [events, today, status] = (env.REWARD_FACTS_TEST_INTERVALS_MS ?? "").split(",").map(positive);
  if (events && today) hooks.intervalsMs = { events, today, ...(status ? { status } : {}) };
  const limit = positive(env.REWARD_FACTS_TEST_API_LIMIT);
  if (limit) hooks.apiLimitPerMinute = limit;
  const window = positive(env.REWARD_FACTS_TEST_REDELIVERY_WINDOW_MS);
  if (window) hooks.redeliveryWindowMs = window;
  return hooks;
}
