/**
 * The signal a request goes out with: it aborts when the caller's does, or once `ms` have passed.
 * The timer is the global setTimeout, not AbortSignal.timeout, so that fake timers in tests drive
 * it like every other wait of the bridge. `clear()` once the request is done, failed or not.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #outer: AbortSignal | undefined;
  readonly #onOuterAbort = () => this.#controller.abort(this.#outer?.reason);
  #expired = false;

  constructor(ms: number, outer?: AbortSignal) {
    this.#outer = outer;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      // A plain Error, not the DOMException an abort() without a reason builds (stack and all).
      this.#controller.abort(new Error("request deadline passed"));
    }, ms);
    if (outer?.aborted) this.#onOuterAbort();
    else outer?.addEventListener("abort", this.#onOuterAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Whether the deadline passed (rather than the caller aborting). */
  get expired(): boolean {
    return this.#expired;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#outer?.removeEventListener("abort", this.#onOuterAbort);
  }
}
