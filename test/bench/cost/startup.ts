import { type EventRecorder, waitFor } from "../../support/home-assistant.js";
import type { RunningBridge } from "../real/bridge.js";
import { isBridgeEntity, stateChange } from "../real/ha-states.js";

export interface StartupTiming {
  /** From the spawn to the first state of the bridge that Home Assistant holds. */
  firstStateMs: number;
  /** From the spawn until every expected entity has a state. */
  allStatesMs: number;
  firstEntity: string;
}

/**
 * Reads Home Assistant's own state_changed events (their time_fired, on this machine's clock):
 * the first one of a bridge entity after the spawn is the first state visible in Home Assistant.
 */
export async function measureStartup(
  states: EventRecorder,
  bridge: RunningBridge,
  expected: readonly string[],
  timeoutMs = 120_000,
): Promise<StartupTiming> {
  const changes = () =>
    states.events
      .map(stateChange)
      .filter((c) => c.state !== null && c.at >= bridge.spawnedAt && isBridgeEntity(c.entityId));
  const first = await waitFor(() => changes()[0], {
    timeoutMs,
    intervalMs: 20,
    description: "a first bridge state in Home Assistant",
  });
  const all = await waitFor(
    () => {
      const seen = changes();
      const times = expected.map((id) => seen.find((c) => c.entityId === id)?.at);
      return times.every((t) => t !== undefined) ? Math.max(...(times as number[])) : undefined;
    },
    { timeoutMs, intervalMs: 50, description: `states of ${expected.join(", ")}` },
  );
  return {
    firstStateMs: first.at - bridge.spawnedAt,
    allStatesMs: all - bridge.spawnedAt,
    firstEntity: first.entityId,
  };
}
