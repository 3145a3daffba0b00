/**
 * The longest delay Node's timers hold, 2^31 − 1 ms (about 24.8 days). Node arms a longer one for
 * 1 ms instead, with a TimeoutOverflowWarning: a wait computed from a damaged or hostile value (a
 * pause of years) then fired at once, again and again, and the process spun. Every wait is held to
 * this; a caller that needs longer finds, when it wakes, that it must wait again.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Waits `ms` on the global timer (so fake timers in tests drive it), or rejects with the signal's
 * reason when it aborts first. The wait is held between 0 and MAX_TIMER_MS; one that is not a
 * number (NaN) is none.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, timerDelay(ms));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** `ms` as a delay Node's timers hold as given: within 0 and MAX_TIMER_MS, NaN as 0. */
export function timerDelay(ms: number): number {
  if (Number.isNaN(ms)) return 0;
  return Math.min(MAX_TIMER_MS, Math.max(0, ms));
}
