// The household lease's rules: which bridge publishes to a Home Assistant. The lease is a small
// text (an input_text helper's value, household-lease.ts) naming its holder and this run of it; a
// holder that stops renewing it (killed, its host gone) loses it `ttlMs` after Home Assistant last
// saw it written. Home Assistant's own clock tells how long ago that was: two bridges whose clocks
// disagree (an hour, a wrong time zone) judge the same age, so neither takes a live holder's lease.
// A bridge restarted in place finds it its own (the same data directory on the same host, the
// earlier run's process gone); a copy of its data directory running elsewhere at the same time
// does not: each run draws a token of its own. Pure.

/** Who holds the lease, as another bridge shows it to a person: where it runs and since when. */
export interface LeaseHolder {
  /** Kept in the data directory: the same bridge across its restarts. */
  id: string;
  /** Drawn by each run: two processes with one data directory (a copy) tell each other apart. */
  run?: string;
  host: string;
  mode: "addon" | "standalone";
  /** Its process on its host: on the same host, whether it still runs can be asked. */
  pid: number;
  /** When this run of the holder started (ISO 8601). */
  since: string;
}

/** Who asks, and how it tells whether a process of its host still runs. */
export interface LeaseAsker {
  id: string;
  run: string;
  host: string;
  isRunning: (pid: number) => boolean;
}

export interface Lease extends LeaseHolder {
  /** When the holder last renewed it, by its own clock (ISO 8601): for a person, never judged. */
  beat: string;
}

/** The lease as Home Assistant holds it now. */
export interface LeaseReading {
  value: string | undefined;
  /** How long ago Home Assistant last saw it written, by Home Assistant's clock; unknown without a value. */
  ageMs: number | undefined;
}

export type LeaseJudgement =
  /** Nobody holds it, or a holder that has gone silent: it may be taken. */
  | { kind: "free"; expired?: LeaseHolder }
  /** This run's, or (`restarted`) an earlier run's of this bridge on this host, whose process is gone. */
  | { kind: "mine"; restarted?: true }
  /** Another bridge holds it and is alive; `copy` when it runs with this bridge's own identity. */
  | { kind: "taken"; holder: LeaseHolder; copy?: true };

/** An input_text holds 255 characters at most. */
const MAX_LENGTH = 255;

export function encodeLease(lease: Lease): string {
  const text = JSON.stringify({ ...lease, host: lease.host.slice(0, 60) });
  if (text.length > MAX_LENGTH) throw new RangeError(`a lease is ${MAX_LENGTH} characters at most: ${text}`);
  return text;
}

/** The lease in a helper's value; undefined when there is none (empty, unknown, or not one). */
export function decodeLease(value: string | undefined): Lease | undefined {
  if (!value) return undefined;
  try {
    const lease = JSON.parse(value) as Partial<Lease> | null;
    if (
      typeof lease?.id !== "string" ||
      typeof lease.host !== "string" ||
      (lease.mode !== "addon" && lease.mode !== "standalone") ||
      typeof lease.pid !== "number" ||
      typeof lease.since !== "string" ||
      typeof lease.beat !== "string" ||
      (lease.run !== undefined && typeof lease.run !== "string")
    )
      return undefined;
    const { id, run, host, mode, pid, since, beat } = lease;
    return { id, ...(run === undefined ? {} : { run }), host, mode, pid, since, beat };
  } catch {
    return undefined;
  }
}

/**
 * Whether `self` may publish, given the lease as Home Assistant holds it. A lease whose age cannot
 * be told is taken as fresh: waiting is the safe side.
 */
export function judgeLease(reading: LeaseReading, self: LeaseAsker, ttlMs: number): LeaseJudgement {
  const lease = decodeLease(reading.value);
  if (!lease) return { kind: "free" };
  const { beat: _beat, ...holder } = lease;
  const silent = reading.ageMs !== undefined && reading.ageMs > ttlMs;
  // A process of this host that no longer runs: the holder was killed here.
  const goneFromHere = lease.host === self.host && !self.isRunning(lease.pid);
  if (lease.id === self.id) {
    if (lease.run === self.run) return { kind: "mine" };
    // An earlier run of this bridge: restarted in place, or written by a version without runs.
    if (lease.run === undefined || silent || goneFromHere) return { kind: "mine", restarted: true };
    return { kind: "taken", holder, copy: true };
  }
  if (silent || goneFromHere) return { kind: "free", expired: holder };
  return { kind: "taken", holder };
}

/** A holder as a person reads it in a log line or a notification: `add-on on a0d7b954-reward-facts, started …`. */
export function describeHolder(holder: LeaseHolder): string {
  return `${holder.mode === "addon" ? "add-on" : "standalone"} on ${holder.host} (process ${holder.pid}), started ${holder.since}`;
}
