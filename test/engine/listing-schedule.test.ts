import { describe, expect, it } from "vitest";
import { DISCOVERY_INTERVAL_MS, ListingSchedule } from "../../src/engine/listing-schedule.js";

const NOW = 1_800_000_000_000;
const SECOND = 1_000;

describe("when the children are listed next", () => {
  it("at once at the start, then every 5 minutes while the listing goes through", () => {
    const schedule = new ListingSchedule({
      intervalMs: DISCOVERY_INTERVAL_MS,
      jitter: 0.1,
      random: Math.random,
    });
    expect(schedule.due).toBe(0);
    schedule.listed(NOW);
    expect(schedule.due).toBe(NOW + 5 * 60 * SECOND);
  });

  it("after a failure, within seconds, the waits doubling to a minute, then the interval once it goes through", () => {
    const schedule = new ListingSchedule({ intervalMs: DISCOVERY_INTERVAL_MS, jitter: 0, random: () => 0.5 });
    const waits: number[] = [];
    let now = NOW;
    for (let i = 0; i < 7; i++) {
      schedule.failed(now);
      waits.push(schedule.due - now);
      now = schedule.due;
    }
    expect(waits).toEqual([5, 10, 20, 40, 60, 60, 60].map((s) => s * SECOND));
    schedule.listed(now);
    expect(schedule.due).toBe(now + DISCOVERY_INTERVAL_MS);
    // Back to the first wait after a listing went through.
    schedule.failed(now);
    expect(schedule.due - now).toBe(5 * SECOND);
  });

  it("moves each retry a little at random, so that bridges that failed together drift apart", () => {
    const at = (random: number) => {
      const schedule = new ListingSchedule({
        intervalMs: DISCOVERY_INTERVAL_MS,
        jitter: 0.1,
        random: () => random,
      });
      schedule.failed(NOW);
      return schedule.due - NOW;
    };
    expect([at(0), at(0.5), at(0.999_999)].map((ms) => Math.round(ms))).toEqual([4_500, 5_000, 5_500]);
  });

  it("lists at once after a child's read is refused, never later than it was due", () => {
    const schedule = new ListingSchedule({ intervalMs: DISCOVERY_INTERVAL_MS, jitter: 0, random: () => 0.5 });
    schedule.listed(NOW);
    schedule.soon(NOW + 30 * SECOND);
    expect(schedule.due).toBe(NOW + 30 * SECOND);
    schedule.failed(NOW + 30 * SECOND);
    schedule.soon(NOW + 31 * SECOND);
    expect(schedule.due).toBe(NOW + 31 * SECOND);
    schedule.soon(NOW + 90 * SECOND);
    expect(schedule.due).toBe(NOW + 31 * SECOND);
  });
});
