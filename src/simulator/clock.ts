// Every time-based rule of the simulator (journal visibility, sessions, day boundaries, rate
// windows) reads one of these clocks, never Date.now directly, so that tests can drive time.

/** Milliseconds since the epoch, as the simulated service sees them. */
export interface SimClock {
  now(): number;
}

/**
 * Wall time. Reads Date.now() at every call, never caches it: engine tests fake Date with
 * vitest's fake timers and the simulator must follow them.
 */
export const realClock: SimClock = { now: () => Date.now() };

export interface ScaledClockOptions {
  /** Simulated instant at which the clock starts (ms or ISO 8601); now by default. */
  start?: number | string;
  /** Simulated milliseconds per real millisecond, e.g. 60 for an hour a minute. */
  speed: number;
  /** The clock whose elapsed time is scaled; wall time by default. */
  base?: SimClock;
}

/** A clock that runs faster (or slower) than its base from a start instant, for the demo. */
export class ScaledClock implements SimClock {
  readonly speed: number;
  readonly #base: SimClock;
  readonly #baseOrigin: number;
  readonly #start: number;

  constructor(options: ScaledClockOptions) {
    if (!(options.speed > 0) || !Number.isFinite(options.speed)) {
      throw new RangeError(`clock speed must be a positive number, got ${options.speed}`);
    }
    this.#base = options.base ?? realClock;
    this.#baseOrigin = this.#base.now();
    this.#start = options.start === undefined ? this.#baseOrigin : toEpochMs(options.start);
    this.speed = options.speed;
  }

  now(): number {
    return Math.floor(this.#start + (this.#base.now() - this.#baseOrigin) * this.speed);
  }
}

/** A clock that moves only when told to. */
export class ManualClock implements SimClock {
  #now: number;

  constructor(start: number | string) {
    this.#now = toEpochMs(start);
  }

  now(): number {
    return this.#now;
  }

  set(instant: number | string): void {
    this.#now = toEpochMs(instant);
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms)) throw new RangeError(`cannot advance a clock by ${ms}`);
    this.#now += ms;
    return this.#now;
  }
}

export function toEpochMs(instant: number | string): number {
  const ms = typeof instant === "number" ? instant : Date.parse(instant);
  if (!Number.isFinite(ms)) throw new RangeError(`not an instant: ${String(instant)}`);
  return ms;
}
