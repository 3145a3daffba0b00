import type { ServedRequest } from "../../../src/simulator/index.js";
import { type Client, clientOf } from "./measure.js";

/**
 * What a side-by-side run's 429s need to be read: for each refusal, whose request it was and what
 * each client had admitted in the 60 s before it (the API's count at that instant); and the
 * `rest` scans, as bursts. Whether a refusal of `rest` came from the bridge's share or from rest's
 * own minute shows here: a scan that comes less than 60 s after the one before still finds that
 * one in the window (its second scan after a start does: run-side.ts).
 */
export interface Refusal {
  at: number;
  client: Client;
  /** Admitted requests of each client in the 60 s up to the refusal. */
  admitted: Record<Client, number>;
}

export interface Scan {
  at: number;
  requests: number;
  /** From its first request to its last. */
  spreadMs: number;
  /** From the previous scan's first request; undefined for the first. */
  sincePreviousMs: number | undefined;
}

/** Requests of one client closer than this to each other belong to one scan. */
const SCAN_GAP_MS = 5_000;

export function refusalsOf(requests: readonly ServedRequest[], windowMs = 60_000): Refusal[] {
  return requests
    .filter((r) => r.status === 429)
    .map((refused) => {
      const admitted: Record<Client, number> = { bridge: 0, rest: 0 };
      for (const r of requests) {
        if (r.status !== 429 && r.at > refused.at - windowMs && r.at <= refused.at)
          admitted[clientOf(r.userAgent)]++;
      }
      return { at: refused.at, client: clientOf(refused.userAgent), admitted };
    });
}

export function restScans(requests: readonly ServedRequest[]): Scan[] {
  const groups: number[][] = [];
  for (const r of requests) {
    if (clientOf(r.userAgent) !== "rest") continue;
    const last = groups.at(-1);
    if (last && r.at - (last.at(-1) as number) < SCAN_GAP_MS) last.push(r.at);
    else groups.push([r.at]);
  }
  return groups.map((times, i) => {
    const at = times[0] as number;
    const previous = groups[i - 1]?.[0];
    return {
      at,
      requests: times.length,
      spreadMs: (times.at(-1) as number) - at,
      sincePreviousMs: previous === undefined ? undefined : at - previous,
    };
  });
}

/**
 * Whether the bridge is past its start: every followed child's journal read since the bridge's
 * last 429. It starts on the whole budget, reading every child at once, and beside `rest` its
 * first minute ends in a 429; it then reads the children it had not reached yet, one after the
 * other at its new share, before anyone's polls come round again. A window that began before that
 * measured the start: on 2026-11-27 it began 124 s after the bridge's, five children were still
 * unread, and Léa's journal waited 179 s for its turn, 140 s after her first fact of the window.
 */
export function bridgePastItsStart(requests: readonly ServedRequest[], childIds: readonly string[]): boolean {
  const bridge = requests.filter((r) => clientOf(r.userAgent) === "bridge");
  const lastRefusal = bridge.findLast((r) => r.status === 429)?.at ?? Number.NEGATIVE_INFINITY;
  const polled = new Set(
    bridge
      .filter((r) => r.at > lastRefusal && r.status === 200 && /^\/children\/[^/]+\/events/.test(r.path))
      .map((r) => r.path.split("/")[2]),
  );
  return childIds.every((id) => polled.has(id));
}

/** One line per refusal and one per scan, times from `origin` (the window's start) in seconds. */
export function refusalLines(requests: readonly ServedRequest[], origin: number): string[] {
  const s = (ms: number) => `${((ms - origin) / 1000).toFixed(1)} s`;
  return [
    ...refusalsOf(requests).map(
      (r) =>
        `429 for ${r.client} at ${s(r.at)}: admitted in the 60 s before, bridge ${r.admitted.bridge}, rest ${r.admitted.rest}`,
    ),
    ...restScans(requests).map(
      (scan) =>
        `rest scan at ${s(scan.at)}: ${scan.requests} requests within ${scan.spreadMs} ms` +
        (scan.sincePreviousMs === undefined
          ? ""
          : `, ${(scan.sincePreviousMs / 1000).toFixed(2)} s after the one before`),
    ),
  ];
}
