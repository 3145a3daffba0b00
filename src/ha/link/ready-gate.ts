/**
 * A condition others wait for (a link up, Home Assistant running): open or shut, with waiters
 * released when it opens and dropped when their signal aborts.
 */
export class ReadyGate {
  #open = false;
  #waiters: Array<() => void> = [];

  get isOpen(): boolean {
    return this.#open;
  }

  set(open: boolean): void {
    this.#open = open;
    if (open) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Resolves once open (at once if it is); rejects with the signal's reason when it aborts first. */
  wait(signal: AbortSignal): Promise<void> {
    if (this.#open) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }
}
