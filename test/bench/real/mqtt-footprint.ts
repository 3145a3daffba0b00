import { setTimeout as sleep } from "node:timers/promises";
import { connectAsync } from "mqtt";
import {
  BASE,
  BRIDGE_NODE,
  childNodeOfTopic,
  DISCOVERY_PREFIX,
} from "../../../src/ha/entities/mqtt/topics.js";

/** How long the broker is given to send every retained message after the subscription. */
const RETAINED_SETTLE_MS = 1_000;

/**
 * Clears every retained message of the bridge on the broker (its discovery configs and its states),
 * so that Home Assistant removes its MQTT entities and the next start is a first start, as the
 * REST runs start with their states deleted. Without it a start would show the states retained by
 * the previous one before reading anything. Returns how many topics were cleared.
 */
export async function clearBridgeFootprint(brokerUrl: string): Promise<number> {
  const client = await connectAsync(brokerUrl, { clientId: `rf-bench-clear-${process.pid}-${Date.now()}` });
  try {
    const topics = new Set<string>();
    client.on("message", (topic, payload, packet) => {
      if (packet.retain && payload.length > 0 && isBridgeTopic(topic)) topics.add(topic);
    });
    await client.subscribeAsync([`${DISCOVERY_PREFIX}/+/+/+/config`, `${BASE}/#`]);
    await sleep(RETAINED_SETTLE_MS);
    await client.unsubscribeAsync([`${DISCOVERY_PREFIX}/+/+/+/config`, `${BASE}/#`]);
    for (const topic of topics) await client.publishAsync(topic, "", { retain: true, qos: 1 });
    return topics.size;
  } finally {
    await client.endAsync();
  }
}

function isBridgeTopic(topic: string): boolean {
  if (topic.startsWith(`${BASE}/`)) return true;
  return childNodeOfTopic(topic) !== undefined || topic.split("/")[2] === BRIDGE_NODE;
}
