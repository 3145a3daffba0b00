import type { ApiSimulator } from "../../../src/simulator/index.js";
import { localDateOf, localDayStartMs } from "../../../src/time/zoned.js";
import type { EventRecorder } from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";

export interface RealCatchupResult {
  facts: number;
  /** Bridge spawned → last backlog fact fired in Home Assistant; NaN when it never drained. */
  drainMs: number;
  delivered: number;
  /** Fires beyond the first of a fact. */
  duplicates: number;
  /** Every child's facts fired in the journal's order. */
  inOrder: boolean;
  /** Events pages the simulator served over the drain. */
  pages: number;
}

/**
 * A day's backlog: `facts` journal facts spread over `children` new children from local midnight
 * until a second ago, recorded before the bridge starts. Returns the ids per child, in the
 * journal's order.
 */
export function recordBacklog(sim: ApiSimulator, facts: number, children: number): Map<string, string[]> {
  const added = Array.from({ length: children }, (_, i) =>
    sim.addChild(`Backlog ${i + 1}`, { planned: false }),
  );
  const now = sim.clock.now();
  const from = localDayStartMs(localDateOf(now, sim.timeZone), sim.timeZone);
  const step = (now - 1_000 - from) / facts;
  const ids = new Map(added.map((child) => [child.id, [] as string[]]));
  for (let i = 0; i < facts; i++) {
    const child = added[i % added.length];
    if (!child) continue;
    const fields =
      i % 2 === 0 ? ({ type: "behavior_validated" } as const) : ({ type: "cheer_sent" } as const);
    ids.get(child.id)?.push(sim.addEvent(child.id, fields, { at: Math.round(from + i * step) }).id);
  }
  return ids;
}

/** Waits until every backlog fact has been fired once in Home Assistant (or the limit), and measures. */
export async function measureCatchup(
  sim: ApiSimulator,
  fired: EventRecorder,
  backlog: Map<string, string[]>,
  spawnedAt: number,
  limitMs: number,
): Promise<RealCatchupResult> {
  const wanted = new Map<string, string>();
  for (const [child, ids] of backlog) for (const id of ids) wanted.set(id, child);
  // Every simulator of the bench has the same seed, so an earlier run fired these ids already: only
  // this start's fires count.
  const ours = () =>
    fired.events.filter((e) => wanted.has(String(e.data.event_id)) && Date.parse(e.time_fired) >= spawnedAt);
  const distinct = () => new Set(ours().map((e) => String(e.data.event_id))).size;
  await waitFor(() => distinct() >= wanted.size, {
    timeoutMs: limitMs,
    intervalMs: 200,
    description: `${wanted.size} backlog facts fired`,
  }).catch(() => undefined);
  const events = ours();
  const delivered = distinct();
  const lastFire = Math.max(...events.map((e) => Date.parse(e.time_fired)));
  const firedOrder = new Map<string, string[]>();
  for (const e of events) {
    const child = wanted.get(String(e.data.event_id)) ?? "";
    const order = firedOrder.get(child) ?? [];
    order.push(String(e.data.event_id));
    firedOrder.set(child, order);
  }
  const inOrder = [...backlog].every(([child, ids]) =>
    (firedOrder.get(child) ?? []).every((id, i) => ids[i] === id),
  );
  return {
    facts: wanted.size,
    drainMs: delivered >= wanted.size ? lastFire - spawnedAt : Number.NaN,
    delivered,
    duplicates: events.length - delivered,
    inOrder,
    pages: sim.requests.filter((r) => r.at >= spawnedAt && r.path.includes("/events") && r.status === 200)
      .length,
  };
}
