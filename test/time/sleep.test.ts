import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_TIMER_MS, sleep, timerDelay } from "../../src/time/sleep.js";

const DAY = 24 * 60 * 60_000;

describe("sleep", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("rejects at once with the reason of a signal already aborted, arming no timer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const stop = new AbortController();
    const reason = new Error("stopped before the wait");
    stop.abort(reason);
    await expect(sleep(60_000, stop.signal)).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds a wait to what Node's timers hold", () => {
    expect(timerDelay(5_000)).toBe(5_000);
    expect(timerDelay(-5)).toBe(0);
    expect(timerDelay(Number.NaN)).toBe(0);
    expect(timerDelay(2 ** 31)).toBe(MAX_TIMER_MS);
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
  });

  it("waits the longest a timer holds for a wait of years, not a millisecond", async () => {
    // Fake timers do what Node does with a longer delay: they fire it after 1 ms.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let woke = false;
    const waiting = sleep(3 * 365 * DAY).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(DAY);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS - DAY);
    await waiting;
    expect(woke).toBe(true);
  });

  it("arms no timer Node would warn of (TimeoutOverflowWarning), on the real timers", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const stop = new AbortController();
      const waiting = sleep(99_999_999_000, stop.signal).catch(() => "aborted");
      // Node emits the warning on the next tick after arming; give it a few turns.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      stop.abort(new Error("done"));
      expect(await waiting).toBe("aborted");
      expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
