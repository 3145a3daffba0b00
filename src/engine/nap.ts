import { timerDelay } from "../time/sleep.js";

/**
 * The loop's wait between jobs, which a request can cut short (a Read now press): the loop then
 * looks at its schedule again at once rather than at the end of a wait of up to 30 s.
 */
export class Nap {
  #wake: (() => void) | undefined;

  /** Waits `ms`, or less when woken; rejects with the signal's reason when it aborts first. */
  take(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const end = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.#wake = undefined;
      };
      const onAbort = () => {
        end();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        end();
        resolve();
      }, timerDelay(ms));
      signal.addEventListener("abort", onAbort, { once: true });
      this.#wake = () => {
        end();
        resolve();
      };
    });
  }

  /** Ends the wait in progress, if any. */
  wake(): void {
    this.#wake?.();
  }
}
