import { describe, expect, it } from "vitest";
import { testHooksOf } from "../../src/config/test-hooks.js";

describe("the tests' hooks", () => {
  it("are none in a user's environment", () => {
    expect(testHooksOf({ REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10", HA_URL: "http://ha:8123" })).toEqual({});
  });

  it("read each variable a test sets", () => {
    expect(
      testHooksOf({
        REWARD_FACTS_TEST_PAUSE: "before_ack:4000",
        REWARD_FACTS_TEST_LEASE_SECONDS: "3",
        REWARD_FACTS_TEST_INTERVALS_MS: "2000,3000,5000",
        REWARD_FACTS_TEST_API_LIMIT: "600",
        REWARD_FACTS_TEST_REDELIVERY_WINDOW_MS: "10000",
      }),
    ).toEqual({
      pause: { moment: "before_ack", ms: 4000 },
      leaseBeatMs: 3000,
      intervalsMs: { events: 2000, today: 3000, status: 5000 },
      apiLimitPerMinute: 600,
      redeliveryWindowMs: 10000,
    });
  });

  it("leave the status' refresh alone unless a third interval is given", () => {
    expect(testHooksOf({ REWARD_FACTS_TEST_INTERVALS_MS: "2000,3000" })).toEqual({
      intervalsMs: { events: 2000, today: 3000 },
    });
  });

  it("take a malformed value as no hook", () => {
    expect(
      testHooksOf({
        REWARD_FACTS_TEST_PAUSE: "whenever:10",
        REWARD_FACTS_TEST_LEASE_SECONDS: "0",
        REWARD_FACTS_TEST_INTERVALS_MS: "2000",
        REWARD_FACTS_TEST_API_LIMIT: "-5",
      }),
    ).toEqual({});
  });
});
