import { connect, type IClientOptions } from "mqtt";
import { type BrokerAddress, brokerEndpoint } from "./mqtt-link.js";
import { ALL_DISCOVERY_CONFIGS, BASE, BRIDGE_NODE } from "./topics.js";

// What the removal step (ha/removal.ts) clears on the broker: every retained message the bridge
// left, found by asking the broker rather than by recomputing topics, so that the devices of
// children long gone, or of a data directory lost since, go too. The choice is pure
// (bridgeRetainedTopics); the sweep is one short connection with no last will and no birth
// message (it must not look like a bridge coming online).

/** The origin name every discovery config of the bridge carries (discovery.ts). */
const BRIDGE_ORIGIN = "reward-facts-bridge";

/** After the subscription is acknowledged, the retained messages come at once; this much quiet ends the wait. */
const QUIET_MS = 750;
/** However many there are, the wait for them ends after this. */
const COLLECT_LIMIT_MS = 10_000;

export interface RetainedTopics {
  /** Discovery configs of the bridge's device and its children's, cleared first. */
  discovery: string[];
  /** States, attributes and availabilities under the bridge's base topic. */
  states: string[];
}

/** Whether a discovery config is the bridge's: its node is one of the bridge's, and its payload says so. */
function isBridgeConfig(topic: string, payload: string): boolean {
  const node = topic.split("/")[2] ?? "";
  if (node !== BRIDGE_NODE && !node.startsWith("reward_facts_")) return false;
  try {
    const config = JSON.parse(payload) as { origin?: { name?: unknown }; unique_id?: unknown } | null;
    // Device triggers carry no unique id: their origin names the bridge. Entities carry both.
    return (
      config?.origin?.name === BRIDGE_ORIGIN ||
      (typeof config?.unique_id === "string" && config.unique_id.startsWith(node))
    );
  } catch {
    // Not JSON: not a config the bridge wrote; left to whoever did.
    return false;
  }
}

/** Of the retained messages found, the bridge's (pure: the broker's answer in, topics out). */
export function bridgeRetainedTopics(retained: ReadonlyMap<string, string>): RetainedTopics {
  const discovery: string[] = [];
  const states: string[] = [];
  for (const [topic, payload] of retained) {
    if (payload === "") continue;
    if (topic.startsWith(`${BASE}/`)) states.push(topic);
    else if (/^homeassistant\/[^/]+\/[^/]+\/[^/]+\/config$/.test(topic) && isBridgeConfig(topic, payload))
      discovery.push(topic);
  }
  return { discovery: discovery.sort(), states: states.sort() };
}

/** A connection that reads what the broker retains and clears topics; nothing else. */
export class RetainedSweep {
  readonly #client: ReturnType<typeof connect>;

  private constructor(client: ReturnType<typeof connect>) {
    this.#client = client;
  }

  /** Connects once (no retry: the removal reports a broker it cannot reach). */
  static async open(broker: BrokerAddress, signal?: AbortSignal): Promise<RetainedSweep> {
    const options: IClientOptions = {
      username: broker.username,
      password: broker.password,
      clientId: `reward_facts_removal_${Math.random().toString(16).slice(2, 10)}`,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      writeCache: false,
    };
    const client = connect({ ...brokerEndpoint(broker.url), ...options });
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        client.end(true);
        reject(error);
      };
      const onAbort = () => fail(new Error("stopped before the MQTT broker answered"));
      client.once("connect", () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      client.once("error", fail);
      client.once("close", () =>
        fail(new Error(`the MQTT broker at ${new URL(broker.url).host} closed the connection`)),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    client.removeAllListeners("error");
    client.removeAllListeners("close");
    return new RetainedSweep(client);
  }

  /** Every retained message under the discovery prefix's configs and the bridge's base topic. */
  async retained(): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    let last = Date.now();
    const onMessage = (topic: string, payload: Buffer, packet: { retain?: boolean }) => {
      if (!packet.retain) return;
      found.set(topic, payload.toString("utf8"));
      last = Date.now();
    };
    this.#client.on("message", onMessage);
    try {
      await this.#client.subscribeAsync([ALL_DISCOVERY_CONFIGS, `${BASE}/#`], { qos: 1 });
      last = Date.now();
      const began = last;
      while (Date.now() - last < QUIET_MS && Date.now() - began < COLLECT_LIMIT_MS)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await this.#client.unsubscribeAsync([ALL_DISCOVERY_CONFIGS, `${BASE}/#`]);
    } finally {
      this.#client.off("message", onMessage);
    }
    return found;
  }

  /** An empty retained message to each topic: the broker forgets it, Home Assistant removes the entity. */
  async clear(topics: readonly string[]): Promise<void> {
    for (const topic of topics) await this.#client.publishAsync(topic, "", { qos: 1, retain: true });
  }

  async close(): Promise<void> {
    await this.#client.endAsync().catch(() => undefined);
  }
}
