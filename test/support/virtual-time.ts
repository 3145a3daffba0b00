import diagnostics from "node:diagnostics_channel";
import { vi } from "vitest";

/**
 * Hours of polling in seconds: the clock is faked (Date and timers), the I/O is real (HTTP to the
 * simulator over loopback, files). Time moves only when no I/O is in flight, so that every
 * request completes at the virtual instant it was sent, as it would on a fast network.
 *
 * I/O in flight is counted from undici's diagnostics channels (requests) and from promises the
 * test hands to `track` (store writes). Everything else the engine waits on is a timer.
 */
export class VirtualTime {
  #inFlight = 0;
  readonly #onCreate = () => {
    this.#inFlight++;
  };
  readonly #onDone = () => {
    this.#inFlight--;
  };

  private constructor() {}

  static install(startIso: string): VirtualTime {
    vi.useFakeTimers({
      now: Date.parse(startIso),
      // setImmediate stays real: settle() uses it to let real I/O callbacks run.
      toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
    });
    const time = new VirtualTime();
    diagnostics.subscribe("undici:request:create", time.#onCreate);
    diagnostics.subscribe("undici:request:trailers", time.#onDone);
    diagnostics.subscribe("undici:request:error", time.#onDone);
    return time;
  }

  uninstall(): void {
    diagnostics.unsubscribe("undici:request:create", this.#onCreate);
    diagnostics.unsubscribe("undici:request:trailers", this.#onDone);
    diagnostics.unsubscribe("undici:request:error", this.#onDone);
    vi.useRealTimers();
  }

  /** Counts a promise as I/O in flight until it settles. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight++;
    return promise.finally(() => {
      this.#inFlight--;
    });
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Real time after which I/O still in flight is taken to wait on a timer (a slow answer the
   * simulator holds, a timeout to come), so that time may move on. Off unless a test needs it:
   * on a loaded machine a real request can take that long, and time must not move under it.
   */
  stuckMs = Number.POSITIVE_INFINITY;

  /** Waits (in real time) until no I/O is in flight and none starts in the following turn. */
  async settle(stuckMs = this.stuckMs): Promise<void> {
    let quietTurns = 0;
    const since = performance.now();
    while (quietTurns < 2) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      quietTurns = this.#inFlight === 0 ? quietTurns + 1 : 0;
      if (quietTurns === 0 && performance.now() - since > stuckMs) return;
    }
  }

  /** Moves virtual time forward by `ms`, one step at a time, settling I/O between steps. */
  async advance(ms: number, stepMs = 1_000): Promise<void> {
    const end = Date.now() + ms;
    await this.settle();
    while (Date.now() < end) {
      await vi.advanceTimersByTimeAsync(Math.min(stepMs, end - Date.now()));
      await this.settle();
    }
  }

  /** Advances until `predicate` holds, or fails after `maxMs` of virtual time. */
  async until(predicate: () => boolean, maxMs: number, stepMs = 1_000): Promise<void> {
    const end = Date.now() + maxMs;
    await this.settle();
    while (!predicate()) {
      if (Date.now() >= end) throw new Error(`condition not met within ${maxMs} ms of virtual time`);
      await vi.advanceTimersByTimeAsync(stepMs);
      await this.settle();
    }
  }
}
