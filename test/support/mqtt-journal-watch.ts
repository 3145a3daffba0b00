import { connectAsync } from "mqtt";
import { BASE } from "../../src/ha/entities/mqtt/topics.js";

/**
 * Every fact message Home Assistant publishes to the children's event entities (MQTT mode), as
 * the broker passes them on: what the MQTT side received, judged beside the bus events. A client
 * of its own on the broker, which outlives Home Assistant's restarts.
 */
export interface MqttJournalWatch {
  /** Each message's payload, parsed, in the order received, repeats included. */
  readonly arrivals: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function watchMqttJournal(brokerUrl: string): Promise<MqttJournalWatch> {
  const client = await connectAsync(brokerUrl, { clientId: `rf-journal-watch-${process.pid}-${Date.now()}` });
  const arrivals: Array<Record<string, unknown>> = [];
  client.on("message", (_topic, payload) => {
    try {
      arrivals.push(JSON.parse(payload.toString()) as Record<string, unknown>);
    } catch {
      arrivals.push({ unreadable: payload.toString() });
    }
  });
  await client.subscribeAsync(`${BASE}/+/journal`, { qos: 1 });
  return { arrivals, close: () => client.endAsync() };
}
