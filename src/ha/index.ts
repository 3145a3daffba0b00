// What the rest of the bridge knows of Home Assistant, and all it may import of this folder.
//
// Shown: the sink the app wires (homeAssistantSink) and what it is given: the broker, which the
// add-on asks the Supervisor for (the MQTT wing's lookup); how long the store keeps the facts sent
// lately (REDELIVERY_WINDOW_MS); where the children's slugs are kept (SlugMemory). The names the
// contract fixes (the event type, the notifications' ids). The household lease (one bridge per
// household), held before anything is published. `npm run dashboard`'s one-shot dashboard. The
// blueprints' words in each language (`npm run blueprints` writes the translated copies).
//
// Withheld: how it talks to Home Assistant (the websocket connection, the REST writer, the MQTT
// link and discovery), the mapping of facts to entities, the delivery script and records, the
// dashboard's parts. Tests may reach inside to try a part alone; the rest of the house does not.
import type { Sink } from "../engine/sink.js";
import { BRIDGE_VERSION } from "../version.js";
import { EntityNames } from "./entities/entity-names.js";
import type { BrokerAddress } from "./entities/mqtt/mqtt-link.js";
import type { SupervisorAccess } from "./entities/mqtt/supervisor-broker.js";
import { HomeAssistantSink } from "./ha-sink.js";
import type { HomeAssistantSinkOptions } from "./sink-wiring.js";

export {
  type DashboardOnce,
  type DashboardOnceOptions,
  writeDashboardOnce,
} from "./dashboard/dashboard-once.js";
export { EVENT_TYPE } from "./delivery/event-data.js";
export { REDELIVERY_WINDOW_MS } from "./delivery/recent-deliveries.js";
export { DEMO_ENTITY_PREFIX } from "./entities/entity-names.js";
export type { BrokerAddress } from "./entities/mqtt/mqtt-link.js";
export type { SupervisorAccess } from "./entities/mqtt/supervisor-broker.js";
export type { SlugMemory } from "./entities/settled-slugs.js";
export { type HeldLease, holdHouseholdLease, LeaseLostError } from "./household/household-lease.js";
export type { HomeAssistantLink } from "./link/connection.js";
export { type HomeAssistantAccess, homeAssistantLink } from "./link/home-assistant-link.js";
export {
  ANOTHER_BRIDGE_NOTIFICATION_ID,
  BROKER_NOTIFICATION_ID,
  TOKEN_NOTIFICATION_ID,
} from "./link/notifications.js";
export type { AssistMemory, AssistRecord } from "./parts/assist.js";
export { type RemovalOptions, RemovalRefusedError, removeFromHomeAssistant } from "./removal/removal.js";
export type { RemovalResult } from "./removal/removal-plan.js";
export { type BlueprintTexts, blueprintLanguages } from "./texts/texts.js";

/** What the app gives the sink: the sink's own options, and how the entities are to be published. */
export interface HomeAssistantTargetOptions extends Omit<HomeAssistantSinkOptions, "entities" | "names"> {
  /** Entities through MQTT discovery on this broker; REST-made states when null. */
  broker: BrokerAddress | null;
  /**
   * The add-on's Supervisor: asked for the broker again after a refusal (a reinstalled Mosquitto
   * has a new user), and for the add-on's page (the devices' link). None standalone.
   */
  supervisor?: SupervisorAccess | undefined;
  /** The prefix of entity ids, the event type and helpers; the contract's `reward_facts` when absent. */
  entityPrefix?: string | undefined;
}

/**
 * The sink that publishes to Home Assistant: entities, the bus event, the token notification.
 * The MQTT client is loaded only when entities go through MQTT (it is the heaviest module).
 */
export async function homeAssistantSink(options: HomeAssistantTargetOptions): Promise<Sink> {
  const { broker, entityPrefix, supervisor, ...rest } = options;
  const common = { ...rest, names: new EntityNames(entityPrefix) };
  if (!broker) return new HomeAssistantSink(common);
  const { mqttEntities } = await import("./entities/mqtt/mqtt-entities.js");
  const addon = supervisor
    ? {
        askBrokerAgain: () => supervisorBroker(supervisor),
        configurationUrl: await (await import("./entities/mqtt/addon-page.js")).addonPage(
          supervisor,
          options.signal,
        ),
      }
    : {};
  return new HomeAssistantSink({
    ...common,
    entities: mqttEntities({ broker, bridgeVersion: BRIDGE_VERSION, ...addon }),
  });
}

/**
 * The broker the Supervisor knows, asked in the add-on (mqtt/supervisor-broker.ts): null when none
 * is installed, SupervisorServiceError when the Supervisor cannot tell. Loaded when asked, like
 * the rest of the MQTT wing: a bridge told to publish states never loads it.
 */
export async function supervisorBroker(
  supervisor: SupervisorAccess,
  signal?: AbortSignal,
): Promise<BrokerAddress | null> {
  const lookup = await import("./entities/mqtt/supervisor-broker.js");
  return lookup.supervisorBroker(supervisor, signal);
}
