import type { BrokerAddress } from "../entities/mqtt/mqtt-link.js";
import { bridgeRetainedTopics, RetainedSweep } from "../entities/mqtt/retained-sweep.js";
import type { RemovalKind } from "./removal-plan.js";

// The broker's part of the removal step (loaded only when a broker is known, like the rest of the
// MQTT wing): the discovery configs first, so that Home Assistant drops the devices and their
// entities while the states are still there to read, then, once it has, the retained states.

/**
 * Clears the bridge's retained messages, counting them into `counts`. `watchRegistry`, called
 * before the configs are cleared, gives the wait for Home Assistant to drop the devices, which says
 * how many it dropped.
 */
export async function sweepBroker(
  broker: BrokerAddress,
  signal: AbortSignal,
  counts: Record<RemovalKind, number>,
  watchRegistry: () => Promise<() => Promise<{ devices: number; entities: number }>>,
): Promise<void> {
  const sweep = await RetainedSweep.open(broker, signal);
  try {
    const { discovery, states } = bridgeRetainedTopics(await sweep.retained());
    const registryCleared = await watchRegistry();
    await sweep.clear(discovery);
    counts.discovery_configs += discovery.length;
    const dropped = await registryCleared();
    counts.devices += dropped.devices;
    counts.entities += dropped.entities;
    await sweep.clear(states);
    counts.state_topics += states.length;
  } finally {
    await sweep.close();
  }
}
