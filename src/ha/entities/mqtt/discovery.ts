import { apiEventTypes } from "../../../api/schemas.js";
import { derivedFactTypes } from "../../../engine/derived-facts.js";
import type { Texts } from "../../texts/texts.js";
import {
  type ChildEntityKind,
  childEntityDefinitions,
  childEntityKinds,
  type EntityDefinition,
  statusDefinition,
} from "../catalogue.js";
import type { ChildIdentity } from "../entities.js";
import { childButtons, type EntityNames } from "../entity-names.js";
import {
  BRIDGE_AVAILABILITY,
  BRIDGE_NODE,
  bridgeTopics,
  childNode,
  childTopics,
  discoveryTopic,
} from "./topics.js";

// MQTT discovery messages: one Home Assistant device per child and one for the bridge, every
// entity with a unique id from the child's id and the entity's key (never the name). Pure.

export interface DiscoveryMessage {
  topic: string;
  /** The config payload; null clears the entity (an empty retained message). */
  payload: Record<string, unknown> | null;
}

export interface DiscoveryContext {
  /** Home Assistant's version: it decides the key that sets the entity id (see entityIdKey). */
  haVersion: string;
  /** The bridge's version, shown on its device page. */
  bridgeVersion: string;
  /** The entity ids given at first registration. */
  names: EntityNames;
  /** The entities' names, in the household's language. */
  texts: Texts;
  /** The devices' link (the add-on's page in Home Assistant); none standalone. */
  configurationUrl?: string | undefined;
}

/** The project's page: the support link of every discovered entity (as DOCS and the blueprints give it). */
export const SUPPORT_URL = "https://github.com/reward-facts/reward-facts-bridge";

/** The children's devices' manufacturer: what the blueprints' device pickers filter on (never translated). */
export const CHILD_MANUFACTURER = "Household Reward Facts";

/** The child's diagnostic entity saying whether its facts can be read, and why not. */
export const READ_STATUS_KEY = "read_status" as const;
export const JOURNAL_KEY = "journal" as const;

/**
 * Every type of fact a child's event entity fires and a device trigger is offered for: the
 * journal's, then those worked out from her day's readings. Home Assistant drops an event whose
 * type its entity does not list.
 */
export const factTypes: readonly string[] = [...apiEventTypes, ...derivedFactTypes];

const origin = (context: DiscoveryContext) => ({
  name: "reward-facts-bridge",
  sw_version: context.bridgeVersion,
  support_url: SUPPORT_URL,
});

/** The device page's "visit" link to the add-on's page; absent standalone (there is none to give). */
const configurationUrl = (context: DiscoveryContext) =>
  context.configurationUrl ? { configuration_url: context.configurationUrl } : {};

const bridgeDevice = (context: DiscoveryContext) => ({
  identifiers: [BRIDGE_NODE],
  name: context.texts.devices.bridge_name,
  // Not the children's manufacturer: the blueprints' device pickers filter on theirs.
  manufacturer: "Reward Facts",
  model: context.texts.devices.bridge_model,
  sw_version: context.bridgeVersion,
  ...configurationUrl(context),
});

/**
 * The key that gives an entity the contract's id at its first registration: `object_id` (the
 * object part) until Home Assistant 2025.10, `default_entity_id` (the whole id) from then on,
 * where `object_id` was deprecated, then removed. Each version drops the key it does not know.
 */
export function entityIdKey(haVersion: string): "object_id" | "default_entity_id" {
  const [year = 0, month = 0] = haVersion.split(".").map(Number);
  return year > 2025 || (year === 2025 && month >= 10) ? "default_entity_id" : "object_id";
}

function idKeys(entityId: string, context: DiscoveryContext): Record<string, string> {
  const key = entityIdKey(context.haVersion);
  return { [key]: key === "object_id" ? entityId.slice(entityId.indexOf(".") + 1) : entityId };
}

function classes(definition: EntityDefinition): Record<string, unknown> {
  return {
    icon: definition.icon,
    ...(definition.deviceClass ? { device_class: definition.deviceClass } : {}),
    ...(definition.unit ? { unit_of_measurement: definition.unit } : {}),
    ...(definition.stateClass ? { state_class: definition.stateClass } : {}),
    ...(definition.options ? { options: [...definition.options] } : {}),
    ...(definition.component === "binary_sensor" ? { payload_on: "on", payload_off: "off" } : {}),
  };
}

/** The unique id of a child's entity (`kind`, or the read status, or the journal): from her id, never her name. */
export function childUniqueId(childId: string, key: string): string {
  return `${childNode(childId)}_${key}`;
}

/** Every discovery message of one child: its entities, its event entity, its device triggers. */
export function childDiscovery(child: ChildIdentity, context: DiscoveryContext): DiscoveryMessage[] {
  const node = childNode(child.id);
  const topics = childTopics(child.id);
  const device = {
    identifiers: [node],
    name: child.firstName,
    manufacturer: CHILD_MANUFACTURER,
    model: context.texts.devices.child_model,
    via_device: BRIDGE_NODE,
    ...configurationUrl(context),
  };
  // An entity is available while the bridge runs and the child's facts can be read.
  const availability = {
    availability: [{ topic: BRIDGE_AVAILABILITY }, { topic: topics.availability }],
    availability_mode: "all",
  };
  const common = { device, origin: origin(context) };
  const messages: DiscoveryMessage[] = childEntityKinds.map((kind: ChildEntityKind) => {
    const definition = childEntityDefinitions[kind];
    return {
      topic: discoveryTopic(definition.component, node, kind),
      payload: {
        ...common,
        ...availability,
        unique_id: childUniqueId(child.id, kind),
        ...idKeys(context.names.child(child.slug, kind), context),
        name: context.texts.entities[kind],
        state_topic: topics.state(kind),
        json_attributes_topic: topics.attributes(kind),
        ...classes(definition),
      },
    };
  });
  messages.push({
    topic: discoveryTopic("sensor", node, READ_STATUS_KEY),
    payload: {
      ...common,
      availability: [{ topic: BRIDGE_AVAILABILITY }],
      unique_id: childUniqueId(child.id, READ_STATUS_KEY),
      ...idKeys(context.names.childExtra(child.slug, READ_STATUS_KEY), context),
      name: context.texts.entities.read_status,
      icon: "mdi:cloud-check-outline",
      entity_category: "diagnostic",
      state_topic: topics.state(READ_STATUS_KEY),
      json_attributes_topic: topics.attributes(READ_STATUS_KEY),
    },
  });
  messages.push({
    topic: discoveryTopic("event", node, JOURNAL_KEY),
    payload: {
      ...common,
      ...availability,
      unique_id: childUniqueId(child.id, JOURNAL_KEY),
      ...idKeys(context.names.childExtra(child.slug, JOURNAL_KEY), context),
      name: context.texts.entities.journal,
      icon: "mdi:star-shooting",
      state_topic: topics.journal,
      event_types: [...factTypes],
    },
  });
  for (const button of childButtons) {
    messages.push({
      topic: discoveryTopic("button", node, button),
      payload: {
        ...common,
        // As her figures: a stopped bridge stays `online` (it says `stopped` itself), and a press
        // then would reach no one.
        ...availability,
        unique_id: childUniqueId(child.id, button),
        ...idKeys(context.names.childExtra(child.slug, button), context),
        name: context.texts.entities[button],
        icon: button === "read_now" ? "mdi:refresh" : "mdi:test-tube",
        // A parent's tool rather than a figure: on the device page, not among her figures.
        entity_category: button === "read_now" ? "config" : "diagnostic",
        command_topic: topics.press(button),
        payload_press: "PRESS",
      },
    });
  }
  for (const type of factTypes) {
    messages.push({
      topic: discoveryTopic("device_automation", node, `trigger_${type}`),
      payload: {
        device,
        origin: origin(context),
        automation_type: "trigger",
        type,
        subtype: "fact",
        topic: topics.trigger(type),
      },
    });
  }
  return messages;
}

/** The same topics with empty payloads: the child's device and entities go away. */
export function clearChildDiscovery(child: ChildIdentity, context: DiscoveryContext): DiscoveryMessage[] {
  return childDiscovery(child, context).map((message) => ({ topic: message.topic, payload: null }));
}

/** The bridge's own entities on the bridge's device. */
import { type BridgeEntityKey, bridgeEntityKeys } from "../catalogue.js";

export { type BridgeEntityKey, bridgeEntityKeys };

const internal = { entity_category: "diagnostic", enabled_by_default: false } as const;

/**
 * The bridge's entities; each id is `sensor.<prefix>_<key>`. Only the status is the contract's and
 * enabled: the others are the bridge's internals (the status carries the same figures as
 * attributes), registered disabled until a user enables them (Home Assistant's
 * entity-disabled-by-default rule), so that they do not sit beside a child's minutes.
 */
const bridgeDefinitions: Record<
  BridgeEntityKey,
  { name: keyof Texts["bridge"] | null; extra: Record<string, unknown> }
> = {
  status: {
    // The device's main entity, named as the device ("Pont Reward Facts"): a name of its own would
    // follow the device's ("Pont Reward Facts État"), a word order French does not have.
    name: null,
    extra: { icon: statusDefinition.icon, json_attributes_topic: bridgeTopics.attributes("status") },
  },
  requests_last_minute: {
    name: "requests_last_minute",
    extra: { icon: "mdi:swap-vertical", state_class: "measurement", ...internal },
  },
  budget_per_minute: {
    name: "budget_per_minute",
    extra: { icon: "mdi:gauge", ...internal },
  },
  interval_stretch: {
    name: "interval_stretch",
    extra: { icon: "mdi:arrow-expand-horizontal", state_class: "measurement", ...internal },
  },
  last_error: {
    name: "last_error",
    extra: { icon: "mdi:alert-circle-outline", ...internal },
  },
};

export function bridgeDiscovery(context: DiscoveryContext): DiscoveryMessage[] {
  return bridgeEntityKeys.map((key) => {
    const definition = bridgeDefinitions[key];
    return {
      topic: discoveryTopic("sensor", BRIDGE_NODE, key),
      payload: {
        device: bridgeDevice(context),
        origin: origin(context),
        availability: [{ topic: BRIDGE_AVAILABILITY }],
        unique_id: `${BRIDGE_NODE}_${key}`,
        ...idKeys(context.names.bridge(key), context),
        name: definition.name === null ? null : context.texts.bridge[definition.name],
        state_topic: bridgeTopics.state(key),
        ...definition.extra,
      },
    };
  });
}
