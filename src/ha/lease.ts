// The household lease's rules: which bridge publishes to a Home Assistant. The lease is a small
// text (an input_text helper's value, household-lease.ts) naming its holder and when it last said
// it was alive; a holder that stops saying so (killed, its host gone) loses it after `ttlMs`, and a
// bridge restarted in place finds it its own: the same data directory (so the same id), or the same
// host where the holder's process is gone (killed, then restarted with a lost data directory). Pure.

/** Who holds the lease, as another bridge shows it to a person: where it runs and since when. */
export interface LeaseHolder {
  /** Kept in the data directory: the same bridge across its restarts. */
  id: string;
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
  host: string;
  isRunning: (pid: number) => boolean;
}

export interface Lease extends LeaseHolder {
  /** When the holder last renewed it (ISO 8601). */
  beat: string;
}

export type LeaseJudgement =
  /** Nobody holds it, or a holder that has gone silent: it may be taken. */
  | { kind: "free"; expired?: LeaseHolder }
  | { kind: "mine" }
  /** Another bridge holds it and is alive. */
  | { kind: "taken"; holder: LeaseHolder };

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
      Number.isNaN(Date.parse(lease.beat))
    )
      return undefined;
    const { id, host, mode, pid, since, beat } = lease;
    return { id, host, mode, pid, since, beat };
  } catch {
    return undefined;
  }
}

/**
 * Whether `self` may publish, given the lease's value now. A beat in the future (a holder's clock
 * ahead of ours) counts as fresh until it is `ttlMs` behind our clock, never longer than that
 * ahead: a clock far ahead cannot hold the lease for ever.
 */
export function judgeLease(
  value: string | undefined,
  self: LeaseAsker,
  now: number,
  ttlMs: number,
): LeaseJudgement {
  const lease = decodeLease(value);
  if (!lease) return { kind: "free" };
  if (lease.id === self.id) return { kind: "mine" };
  const age = now - Date.parse(lease.beat);
  const { beat: _beat, ...holder } = lease;
  if (age > ttlMs || age < -ttlMs) return { kind: "free", expired: holder };
  // A bridge of this host whose process is gone: killed, and restarted here without its data directory.
  if (lease.host === self.host && !self.isRunning(lease.pid)) return { kind: "free", expired: holder };
  return { kind: "taken", holder };
}

/** A holder as a person reads it in a log line or a notification: `add-on on a0d7b954-reward-facts, started …`. */
export function describeHolder(holder: LeaseHolder): string {
  return `${holder.mode === "addon" ? "add-on" : "standalone"} on ${holder.host} (process ${holder.pid}), started ${holder.since}`;
}
