import type { EventRecorder } from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";
import type { RunningBridge } from "../real/bridge.js";
import { isBridgeEntity, stateChange } from "../real/ha-states.js";

export interface StartupTiming {
  /** From the spawn to the first value of the bridge that Home Assistant holds. */
  firstStateMs: number;
  /** From the spawn until every expected entity holds a value. */
  allStatesMs: number;
  firstEntity: string;
}

/** What Home Assistant shows before an entity has a value of its own. */
const NO_VALUE = new Set(["unavailable", "unknown"]);

/**
 * Reads Home Assistant's own state_changed events (their time_fired, on this machine's clock):
 * the first one after the spawn that gives a bridge entity a value (not unavailable or unknown,
 * which an MQTT entity shows from its discovery until its first state) is the first state.
 */
export async function measureStartup(
  states: EventRecorder,
  bridge: RunningBridge,
  expected: readonly string[],
  timeoutMs: number,
): Promise<StartupTiming> {
  const changes = () =>
    states.events
      .map(stateChange)
      .filter(
        (c) =>
          c.state !== null &&
          !NO_VALUE.has(c.state) &&
          c.at >= bridge.spawnedAt &&
          isBridgeEntity(c.entityId),
      );
  const first = await whileRunning(
    bridge,
    waitFor(() => changes()[0], {
      timeoutMs,
      intervalMs: 20,
      description: "a first bridge state in Home Assistant",
    }),
  );
  const all = await whileRunning(
    bridge,
    waitFor(
      () => {
        const seen = changes();
        const times = expected.map((id) => seen.find((c) => c.entityId === id)?.at);
        return times.every((t) => t !== undefined) ? Math.max(...(times as number[])) : undefined;
      },
      { timeoutMs, intervalMs: 50, description: `states of ${expected.join(", ")}` },
    ),
  );
  return {
    firstStateMs: first.at - bridge.spawnedAt,
    allStatesMs: all - bridge.spawnedAt,
    firstEntity: first.entityId,
  };
}

/** A wait that ends as soon as the bridge exits: a bridge that died publishes nothing more. */
function whileRunning<T>(bridge: RunningBridge, wait: Promise<T>): Promise<T> {
  const died = bridge.process.exited().then((code) => {
    throw new Error(`the bridge exited (code ${code}) before Home Assistant showed its states`);
  });
  return Promise.race([wait, died]);
}
