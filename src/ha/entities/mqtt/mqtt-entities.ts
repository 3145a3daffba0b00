import type { EngineStatus, UnavailableReason } from "../../../engine/sink.js";
import { type ChildEntityKind, childEntityKinds } from "../catalogue.js";
import type { ChildIdentity, EntityState, LastFigures } from "../entities.js";
import { childButtons } from "../entity-names.js";
import { type EntityPublisher, FactsMustWaitError, type HomeAssistantParts } from "../entity-publisher.js";
import {
  bridgeDiscovery,
  childDiscovery,
  childUniqueId,
  clearChildDiscovery,
  type DiscoveryMessage,
} from "./discovery.js";
import { AWAY_FROM_BROKER } from "./home-assistant-presence.js";
import { type BrokerAddress, BrokerRefusedError, MqttLink } from "./mqtt-link.js";
import { mqttPayload } from "./payload.js";
import {
  bridgeStateMessages,
  childStateMessages,
  childUnavailableMessages,
  type StateMessage,
} from "./state-messages.js";
import {
  ALL_DISCOVERY_CONFIGS,
  ALL_PRESSES,
  childKey,
  childNode,
  childNodeOfTopic,
  childTopics,
  pressOfTopic,
} from "./topics.js";

export interface MqttEntitiesOptions {
  broker: BrokerAddress;
  bridgeVersion: string;
  keepaliveSeconds?: number;
  /** The add-on: the broker asked of the Supervisor again after a refusal (mqtt-link.ts). */
  askBrokerAgain?: (() => Promise<BrokerAddress | null>) | undefined;
  refusedRetryMs?: number | undefined;
  /** The devices' link to the add-on's page in Home Assistant; none standalone. */
  configurationUrl?: string | undefined;
}

interface RegistryEntry {
  entity_id: string;
}

/**
 * Entities as Home Assistant registry entities through MQTT discovery (as zigbee2mqtt and
 * ring-mqtt do): one device per child and one for the bridge, unique ids from the child's id, the
 * contract's entity ids at first registration, availability from the bridge's last will and per
 * child, retained states, an event entity and device triggers per child.
 */
export class MqttEntities implements EntityPublisher {
  readonly mode = "mqtt";
  readonly #ha: HomeAssistantParts;
  readonly #options: MqttEntitiesOptions;
  readonly #link: MqttLink;
  readonly #children = new Map<string, ChildIdentity>();
  /** The last state messages per child and of the bridge, published again when Home Assistant returns. */
  readonly #last = new Map<string, StateMessage[]>();
  /** Children (and the bridge, "") whose REST-made states of an earlier mode were looked for. */
  readonly #switched = new Set<string>();
  /** Discovery topics of child nodes found retained in the broker, per node (from earlier runs too). */
  readonly #retainedNodes = new Map<string, Set<string>>();

  constructor(ha: HomeAssistantParts, options: MqttEntitiesOptions) {
    this.#ha = ha;
    this.#options = options;
    this.#link = new MqttLink({
      broker: options.broker,
      logger: ha.logger,
      keepaliveSeconds: options.keepaliveSeconds,
      askBrokerAgain: options.askBrokerAgain,
      refusedRetryMs: options.refusedRetryMs,
      onRefusalEnded: () => this.#ha.onRefusalEnded?.(),
      // Children announced by an earlier run, who may have left since: cleared in setChildren.
      subscriptions: [ALL_DISCOVERY_CONFIGS, ALL_PRESSES],
      onMessage: (topic, payload) => {
        const press = pressOfTopic(topic);
        if (press) {
          this.#pressed(press.childKey, press.button, payload);
          return;
        }
        const node = childNodeOfTopic(topic);
        if (!node) return;
        const topics = this.#retainedNodes.get(node) ?? new Set<string>();
        if (payload.length > 0) topics.add(topic);
        else topics.delete(topic);
        this.#retainedNodes.set(node, topics);
      },
      onHomeAssistantOnline: () => {
        this.#ha.logger.info("Home Assistant announced itself on MQTT: publishing every entity again");
        this.republish().catch((error: unknown) =>
          this.#ha.logger.warn({ err: error }, "the entities could not be published again"),
        );
      },
    });
  }

  get ready(): boolean {
    return this.#link.connected;
  }

  get refusal(): string | undefined {
    return this.#link.refused?.message;
  }

  /** Connects; refused credentials are not thrown but kept (refusal): the bridge says so and waits. */
  async open(signal?: AbortSignal): Promise<void> {
    try {
      await this.#link.open(signal);
    } catch (error) {
      if (!(error instanceof BrokerRefusedError)) throw error;
      this.#ha.logger.error(`${error.message}; no entity can be published, facts wait`);
    }
  }

  whenReady(signal: AbortSignal): Promise<void> {
    return this.#link.whenConnected(signal);
  }

  /** A clean disconnect: the bridge says `stopped` itself; the last will is for a death. */
  close(): Promise<void> {
    return this.#link.close();
  }

  /** Empty retained discovery configs: Home Assistant removes the devices and their entities. */
  async remove(): Promise<void> {
    for (const child of this.#children.values())
      await this.#publishDiscovery(clearChildDiscovery(child, this.#context()));
    await this.#publishDiscovery(
      bridgeDiscovery(this.#context()).map((message) => ({ topic: message.topic, payload: null })),
    );
    this.#children.clear();
    this.#last.clear();
  }

  async republish(): Promise<void> {
    await this.#announceBridge();
    for (const child of this.#children.values()) await this.#announce(child);
    for (const messages of this.#last.values()) await this.#link.publishAll(messages);
  }

  async setChildren(children: readonly ChildIdentity[]): Promise<void> {
    const now = new Map(children.map((child) => [child.id, child]));
    for (const [id, child] of this.#children) {
      if (now.has(id)) continue;
      // Gone from the household: its device and entities go from Home Assistant too.
      this.#children.delete(id);
      this.#last.delete(id);
      await this.#publishDiscovery(clearChildDiscovery(child, this.#context()));
    }
    for (const child of children) {
      const known = this.#children.get(child.id);
      this.#children.set(child.id, child);
      if (!known || known.slug !== child.slug || known.firstName !== child.firstName)
        await this.#announce(child);
    }
    // A child an earlier run announced, who left (or was taken out of `children`) meanwhile.
    const followed = new Set(children.map((child) => childNode(child.id)));
    for (const [node, topics] of this.#retainedNodes) {
      if (followed.has(node) || topics.size === 0) continue;
      this.#retainedNodes.delete(node);
      await this.#link.publishAll([...topics].map((topic) => ({ topic, payload: "", retain: true })));
      this.#ha.logger.info({ node }, "removed the device of a child no longer followed");
    }
  }

  async publishChild(child: ChildIdentity, states: readonly EntityState[]): Promise<void> {
    const messages = childStateMessages(child, states);
    this.#last.set(child.id, messages);
    await this.#link.publishAll(messages);
  }

  async markUnavailable(
    child: ChildIdentity,
    reason: UnavailableReason,
    lastReadAt: number | undefined,
    last?: LastFigures,
  ) {
    const lastRead = lastReadAt ? new Date(lastReadAt).toISOString() : null;
    const messages = childUnavailableMessages(this.#ha.texts(), child, reason, lastRead, last);
    // The values stay retained for when the child is readable again; only these change.
    this.#last.set(child.id, [...(this.#last.get(child.id) ?? []), ...messages]);
    await this.#link.publishAll(messages);
  }

  async publishStatus(
    status: EntityState,
    engine: EngineStatus,
    diagnostics: Record<string, unknown>,
  ): Promise<void> {
    const messages = bridgeStateMessages(status, engine, diagnostics);
    this.#last.set("", messages);
    await this.#link.publishAll(messages);
  }

  deliverySteps(child: ChildIdentity, data: Record<string, unknown>, redelivered: boolean): unknown[] {
    if (this.#link.homeAssistantAway) throw new FactsMustWaitError(AWAY_FROM_BROKER);
    const topics = childTopics(child.id);
    const key = this.#ha.connection.supportsActionKey ? "action" : "service";
    const type = String(data.type);
    const payload = mqttPayload({ event_type: type, ...data, redelivered });
    // QoS 0: the script goes on once Home Assistant's client has written the message. At QoS 1
    // each of the two steps waited for the broker's receipt, some 25 ms each on the same machine
    // (a burst of 1,000 facts: 55 ms a fact, against 5 over REST), and a day's backlog took
    // minutes longer than the API needs to read it. With no connection to the broker the step
    // fails either way (paho refuses it), so the fact is neither fired nor recorded, and goes
    // again (broker-away-from-ha.test.ts). What QoS 0 gives up: a message written just as the
    // connection breaks, which QoS 1 would send again at the reconnection.
    const publish = (topic: string) => ({
      [key]: "mqtt.publish",
      data: { topic, payload, qos: 0, retain: false },
    });
    return [publish(topics.journal), publish(topics.trigger(type))];
  }

  /**
   * A child's button pressed in Home Assistant: told to the sink. Presses are never retained (Home
   * Assistant publishes them so), so one made while the bridge was down is not acted on later.
   */
  #pressed(key: string, button: string, payload: Buffer): void {
    const child = [...this.#children.values()].find((candidate) => childKey(candidate.id) === key);
    const known = childButtons.find((candidate) => candidate === button);
    if (!child || !known || payload.length === 0) {
      this.#ha.logger.debug({ key, button }, "a press of a button this bridge does not have");
      return;
    }
    this.#ha.onPress?.(child, known);
  }

  uniqueIdOf(childId: string, kind: ChildEntityKind): string {
    return childUniqueId(childId, kind);
  }

  #context() {
    return {
      haVersion: this.#ha.connection.haVersion ?? "0",
      bridgeVersion: this.#options.bridgeVersion,
      names: this.#ha.names,
      texts: this.#ha.texts(),
      configurationUrl: this.#options.configurationUrl,
    };
  }

  async #announceBridge(): Promise<void> {
    await this.#removeRestStates("", [this.#ha.names.status]);
    await this.#publishDiscovery(bridgeDiscovery(this.#context()));
  }

  async #announce(child: ChildIdentity): Promise<void> {
    await this.#removeRestStates(
      child.id,
      childEntityKinds.map((kind) => this.#ha.names.child(child.slug, kind)),
    );
    await this.#publishDiscovery(childDiscovery(child, this.#context()));
  }

  /**
   * States an earlier REST mode left under the contract's ids: removed before the registry entity
   * registers, which would otherwise get the id with `_2` appended. Registry entities are left alone.
   */
  async #removeRestStates(key: string, entityIds: readonly string[]): Promise<void> {
    // Runs while the link comes up too (before it counts as ready): commands already work then.
    if (this.#switched.has(key)) return;
    const registry = await this.#ha.connection.command<RegistryEntry[]>({
      type: "config/entity_registry/list",
    });
    const registered = new Set(registry.map((entry) => entry.entity_id));
    let removed = 0;
    for (const entityId of entityIds) {
      if (!registered.has(entityId) && (await this.#ha.states.removeState(entityId))) removed++;
    }
    if (removed > 0) this.#ha.logger.info({ removed }, "removed the states an earlier REST mode had written");
    this.#switched.add(key);
  }

  async #publishDiscovery(messages: readonly DiscoveryMessage[]): Promise<void> {
    await this.#link.publishAll(
      messages.map((message) => ({
        topic: message.topic,
        payload: message.payload ? JSON.stringify(message.payload) : "",
        retain: true,
      })),
    );
  }
}

/** Publishes the entities through MQTT discovery, on this broker. */
export function mqttEntities(options: MqttEntitiesOptions) {
  return (ha: HomeAssistantParts) => new MqttEntities(ha, options);
}
