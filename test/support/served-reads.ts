import type { ApiSimulator } from "../../src/simulator/index.js";
import { waitFor } from "./wait-for.js";

/*
 * "Nothing more came" as a count of the bridge's readings, not a number of seconds: a fact that
 * would be fired again, or a state that would change, does so in the reading that follows. The
 * bridge reads one job at a time, so once a later request of the token has arrived, everything
 * the earlier reading brought has been delivered. Waiting for one reading more than asked proves
 * the asked ones finished, whatever the machine's load.
 */

/** A child's reading: her journal page or her day. */
export type ReadKind = "events" | "today";

/** The simulator's answered reads of `kind` for `childId` so far. */
export function answeredReads(sim: ApiSimulator, childId: string, kind: ReadKind): number {
  const prefix = `/children/${encodeURIComponent(childId)}/${kind}`;
  return sim.requests.filter((r) => r.status === 200 && r.path.startsWith(prefix)).length;
}

/**
 * Resolves once `count` more of the child's readings of `kind` than now have been answered and
 * handled (one more has arrived after them).
 */
export async function afterReadings(
  sim: ApiSimulator,
  childId: string,
  kind: ReadKind,
  count = 2,
  timeoutMs = 60_000,
): Promise<void> {
  const before = answeredReads(sim, childId, kind);
  await waitFor(() => answeredReads(sim, childId, kind) >= before + count + 1, {
    timeoutMs,
    intervalMs: 50,
    description: () =>
      `${count + 1} more ${kind} readings of child ${childId} (${answeredReads(sim, childId, kind) - before} so far)`,
  });
}
