import { bridgeEntityKeys, childEntityKinds } from "../entities/catalogue.js";
import type { EntityNames } from "../entities/entity-names.js";
import { BRIDGE_NOTIFICATION_IDS } from "../link/notifications.js";

// What of Home Assistant's is the bridge's, for its removal step (removal.ts): pure choices over
// what Home Assistant lists, so that the removal finds what earlier runs made too (children no
// longer followed, a data directory lost since) rather than only what this run remembers.

/** The kinds the removal counts, in the order it removes them and names them in its last line. */
export const removalKinds = [
  "discovery_configs",
  "devices",
  "entities",
  "state_topics",
  "states",
  "helpers",
  "labels",
  "blueprints",
  "assistant_items",
  "dashboards",
  "notifications",
] as const;
export type RemovalKind = (typeof removalKinds)[number];

/** How many of each were removed; a kind whose step failed is listed in `failed`. */
export interface RemovalResult {
  counts: Record<RemovalKind, number>;
  failed: RemovalKind[];
}

/** The words of each kind in the log (English, as every log line). */
export const removalWords: Record<RemovalKind, string> = {
  discovery_configs: "retained MQTT discovery configs",
  devices: "devices",
  entities: "registry entities",
  state_topics: "retained MQTT state messages",
  states: "states written through the REST API",
  helpers: "input_text helpers",
  labels: "labels and categories",
  blueprints: "blueprints",
  assistant_items: "Assist automation and assistants' script",
  dashboards: "dashboards",
  notifications: "notifications",
};

/** The last line: `removed from Home Assistant: 3 devices, 0 dashboards, …`. */
export function removalSummary(result: RemovalResult): string {
  const parts = removalKinds.map((kind) => `${result.counts[kind]} ${removalWords[kind]}`);
  const failed = result.failed.length
    ? `; NOT removed (see the warnings above): ${result.failed.map((kind) => removalWords[kind]).join(", ")}`
    : "";
  return `removed from Home Assistant: ${parts.join(", ")}${failed}`;
}

/**
 * A state the REST publisher wrote: the status, a bridge sensor, a child's REST-made state (her
 * diary, her week), or a child's entity by the catalogue's pattern, for any slug (children long
 * gone included). `besides`: prefixes of other namings whose ids fit the pattern too (the demo's
 * `reward_facts_demo`), left alone.
 */
export function isBridgeState(
  entityId: string,
  names: EntityNames,
  besides: readonly EntityNames[],
): boolean {
  if (besides.some((other) => isBridgeState(entityId, other, []))) return false;
  if (bridgeEntityKeys.some((key) => names.bridge(key) === entityId)) return true;
  // A child's diary and week (parts/), REST-made states in both modes.
  if (names.isRestMadeChildState(entityId)) return true;
  return childEntityKinds.some((kind) => names.slugIn(entityId, kind) !== undefined);
}

/** A helper the bridge made: a child's delivery record, or the household lease. */
export function isBridgeHelper(helperId: string, names: EntityNames): boolean {
  return names.isHelper(helperId);
}

/** The notifications the bridge raises. */
export function isBridgeNotification(notificationId: string): boolean {
  return (BRIDGE_NOTIFICATION_IDS as readonly string[]).includes(notificationId);
}

/** Node ids of the bridge's MQTT devices begin so (topics.ts), and so the unique ids of their entities. */
const MQTT_NODE_PREFIX = "reward_facts_";

export interface RegistryEntity {
  entity_id: string;
  platform: string;
  unique_id?: string | null;
}

export interface RegistryDevice {
  id: string;
  identifiers: Array<[string, string] | string[]>;
  config_entries: string[];
}

/** An entity of the bridge's MQTT devices in the entity registry. */
export function isBridgeMqttEntity(entry: RegistryEntity): boolean {
  return entry.platform === "mqtt" && (entry.unique_id ?? "").startsWith(MQTT_NODE_PREFIX);
}

/** One of the bridge's MQTT devices (its own, a child's) in the device registry. */
export function isBridgeMqttDevice(device: RegistryDevice): boolean {
  return device.identifiers.some(
    ([domain, id]) => domain === "mqtt" && typeof id === "string" && id.startsWith(MQTT_NODE_PREFIX),
  );
}
