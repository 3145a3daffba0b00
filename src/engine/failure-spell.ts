/**
 * A run of consecutive failures of one source (a child's today, the API as a whole): when it
 * started and whether it has lasted long enough to matter. Logging and availability follow its
 * transitions, not each failure, as Home Assistant's own pollers do.
 */
export class FailureSpell {
  #since: number | null = null;
  #count = 0;

  /** Records a failure; true when this one starts the spell. */
  fail(now: number): boolean {
    this.#count++;
    if (this.#since !== null) return false;
    this.#since = now;
    return true;
  }

  /** Records a success; true when it ends a spell. */
  succeed(): boolean {
    const wasFailing = this.#since !== null;
    this.#since = null;
    this.#count = 0;
    return wasFailing;
  }

  get failing(): boolean {
    return this.#since !== null;
  }

  get failures(): number {
    return this.#count;
  }

  /** How long the spell has lasted (0 when not failing). */
  lastedMs(now: number): number {
    return this.#since === null ? 0 : now - this.#since;
  }
}
