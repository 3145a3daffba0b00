import { busiestMinute } from "../../support/busiest-minute.js";
import type { RestartsObservation } from "./run-restarts.js";

export interface RestartsMetrics {
  /** From the first spawn to the last kill. */
  killsSpanMs: number;
  requests: number;
  /** Requests that arrived during each start's life (until the next spawn). */
  perStart: number[];
  rateLimited: number;
  /** The most requests the simulator answered in any 60 s (the way it enforces the limit). */
  busiestMinute: number;
  /** Children whose today was read at least once, of how many: a bridge that did nothing sends no 429 either. */
  childrenRead: number;
  children: number;
}

export function measureRestarts(o: RestartsObservation): RestartsMetrics {
  const starts = [...o.spawnedAt, o.end + 1];
  const perStart = o.spawnedAt.map(
    (from, i) => o.requests.filter((r) => r.at >= from && r.at < (starts[i + 1] as number)).length,
  );
  return {
    killsSpanMs: o.lastKillAt - (o.spawnedAt[0] ?? Number.NaN),
    requests: o.requests.length,
    perStart,
    rateLimited: o.requests.filter((r) => r.status === 429).length,
    busiestMinute: busiestMinute(o.requests.map((r) => r.at)),
    childrenRead: o.children.filter((id) =>
      o.requests.some((r) => r.path.startsWith(`/children/${id}/today`)),
    ).length,
    children: o.children.length,
  };
}
