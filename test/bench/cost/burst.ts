import type { ApiSimulator } from "../../../src/simulator/index.js";
import type { EventRecorder } from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";
import { sampleProcess } from "../real/proc-stats.js";

export interface BurstResult {
  facts: number;
  /** Events requests for the child from the one that first saw the burst to the last fire. */
  pages: number;
  /** First events request that saw the burst → last reward_facts_event fired in Home Assistant. */
  wallMs: number;
  /** The bridge's CPU time over the burst (from the facts' creation to the last fire). */
  cpuMs: number;
  /** Real time the CPU time was measured over. */
  cpuSpanMs: number;
}

/**
 * Records `n` facts at one instant for one child while the bridge runs, and times how it delivers
 * them: the wall time from the poll that sees them to the last event Home Assistant fires, and the
 * bridge's CPU time meanwhile.
 */
export async function measureBurst(
  sim: ApiSimulator,
  fired: EventRecorder,
  pid: number,
  childId: string,
  n: number,
): Promise<BurstResult> {
  const before = await sampleProcess(pid);
  const createdAt = Date.now();
  const ids = new Set(sim.addEvents(childId, n).map((e) => e.id));
  // Every simulator of the bench has the same seed, so an earlier bridge may have fired these ids
  // already: only this burst's fires count.
  const firedAt = () =>
    fired.events
      .filter((e) => ids.has(String(e.data.event_id)))
      .map((e) => Date.parse(e.time_fired))
      .filter((at) => at >= createdAt);
  await waitFor(() => firedAt().length >= n, {
    timeoutMs: 120_000 + n * 200,
    intervalMs: 50,
    description: `${n} reward_facts_event of the burst`,
  });
  const after = await sampleProcess(pid);
  const lastFire = Math.max(...firedAt());
  const eventsPath = `/children/${childId}/events`;
  const polls = sim.requests.filter(
    (r) => r.at >= createdAt && r.at <= lastFire && r.path.startsWith(eventsPath) && r.status === 200,
  );
  const firstPoll = polls[0]?.at ?? Number.NaN;
  return {
    facts: n,
    pages: polls.length,
    wallMs: lastFire - firstPoll,
    cpuMs: before && after ? after.cpuMs - before.cpuMs : Number.NaN,
    cpuSpanMs: before && after ? after.at - before.at : Number.NaN,
  };
}
