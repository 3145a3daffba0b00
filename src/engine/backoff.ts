/** How the waits between tries of something that keeps failing grow. */
export interface Backoff {
  /** The wait after the first failure. */
  firstMs: number;
  /** The longest wait: it doubles up to this, then stays. */
  maxMs: number;
}

/**
 * A failed listing of the token's children: until one goes through at the first start, no child
 * is followed at all, so it is tried again within seconds (5 s, 10 s, 20 s, 40 s), then every
 * minute while it keeps failing. A fixed wait of the listing's interval left every child
 * unfollowed for 15 minutes after three 503s at start (issue 41).
 */
export const LISTING_BACKOFF: Backoff = { firstMs: 5_000, maxMs: 60_000 };

/**
 * A child whose reads the API refuses (403) while the list still shows it: a single 403 is read
 * again a minute later, a lasting one every five minutes at most, about as often as the list
 * itself is read, rather than waiting for a list that keeps showing the child.
 */
export const REFUSED_CHILD_BACKOFF: Backoff = { firstMs: 60_000, maxMs: 5 * 60_000 };

/**
 * A fact the sink refused (Home Assistant answered with an error: its MQTT client without its
 * broker, a script it cannot run): the page is read again 1 s later, then 2, 4, 8 and every 15 s
 * while it keeps refusing. Read again at once, a refusal spent the whole minute's budget of
 * requests within a fraction of a second (25 reads in 170 ms), holding every other child's reads
 * back, and filled Home Assistant's log with three errors a try.
 */
export const SINK_REFUSED_BACKOFF: Backoff = { firstMs: 1_000, maxMs: 15_000 };

/** The wait after `failures` failures in a row (1 for the first). */
export function backoffMs(failures: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.max(0, failures - 1));
}
