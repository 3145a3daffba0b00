import { writeFileSync } from "node:fs";

/** Where the main loop leaves its heartbeat; the container's HEALTHCHECK reads it. */
export const DEFAULT_HEARTBEAT_FILE = "/tmp/reward-facts.heartbeat";
/** The loop wakes at least every 30 s (events cadence); a heartbeat older than this means it is stuck. */
export const HEARTBEAT_STALE_MS = 180_000;

/**
 * Touches the heartbeat file, at most every `everyMs`: the loop calls it on every turn, and a
 * write per turn would be wasted I/O. Once a minute: the loop turns at least every 30 s, so a
 * running bridge's file is at most 90 s old, half the staleness the check allows (the Docker
 * check runs every 60 s). At 15 s the writes were about 2.5 % of a steady bridge's CPU time.
 */
export class Heartbeat {
  readonly #path: string;
  readonly #everyMs: number;
  #last = 0;

  constructor(path: string = DEFAULT_HEARTBEAT_FILE, everyMs = 60_000) {
    this.#path = path;
    this.#everyMs = everyMs;
  }

  beat(): void {
    const now = Date.now();
    if (now - this.#last < this.#everyMs) return;
    this.#last = now;
    try {
      writeFileSync(this.#path, `${new Date(now).toISOString()}\n`);
    } catch {
      // A heartbeat that cannot be written shows as unhealthy: nothing else to do here.
    }
  }
}
