import type { Logger } from "../../log/logger.js";
import { dashboardPlace } from "../dashboard/build-dashboard.js";
import { removeDashboard } from "../dashboard/dashboard-writer.js";
import { contractNames, EntityNames } from "../entities/entity-names.js";
import type { BrokerAddress } from "../entities/mqtt/mqtt-link.js";
import { describeHolder } from "../household/lease.js";
import { livingHolder } from "../household/lease-reading.js";
import { callService } from "../link/commands.js";
import { ConfigApi } from "../link/config-api.js";
import type { HomeAssistantLink } from "../link/connection.js";
import { HomeAssistantAuthError, HomeAssistantError, HomeAssistantNotAdminError } from "../link/errors.js";
import { homeAssistantLink } from "../link/home-assistant-link.js";
import { deleteInputText, listInputTexts } from "../link/input-text-helpers.js";
import { StateWriter } from "../link/state-writer.js";
import { assistantItems } from "../parts/assist-answers.js";
import { languages, textsFor } from "../texts/texts.js";
import { removeBridgeBlueprints } from "./blueprint-removal.js";
import {
  isBridgeHelper,
  isBridgeMqttDevice,
  isBridgeMqttEntity,
  isBridgeNotification,
  isBridgeState,
  type RegistryDevice,
  type RegistryEntity,
  type RemovalKind,
  type RemovalResult,
  removalKinds,
  removalSummary,
  removalWords,
} from "./removal-plan.js";

// The removal step (`npm start -- --remove`, the add-on's `remove_from_home_assistant`): takes out
// of Home Assistant and the broker everything the bridge made, whichever way it published and
// whichever run made it, then says what it removed. It never calls the Reward Facts API: it works
// with the API gone, or its token revoked. Each kind is a step of its own; one failing does not
// stop the others, and the result names it.

export interface RemovalOptions {
  url: string;
  token: string;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
  /** The broker the bridge publishes through (or did), when one is known: its retained messages go too. */
  broker: BrokerAddress | null;
  logger: Logger;
  /** Prefixes of other namings whose ids fit the bridge's pattern (the demo's): left alone. */
  besides?: readonly string[];
  /** Gives up (waiting for Home Assistant, between steps) when it aborts. */
  signal: AbortSignal;
  /** Removes even while another bridge holds the household lease (`--force`): it would make it all again. */
  force?: boolean;
}

/**
 * What a person must settle before anything is removed: Home Assistant refused the token (or its
 * user is no administrator), or a bridge still publishes there and would make it all again.
 */
export class RemovalRefusedError extends Error {
  override name = "RemovalRefusedError";
}

/** How long Home Assistant takes to drop the devices once their configs are gone, at most. */
const DEVICES_GONE_WAIT_MS = 15_000;

interface Notification {
  notification_id: string;
}

interface State {
  entity_id: string;
}

/** Removes everything the bridge made; resolves with what it removed (a kind that failed is in `failed`). */
export async function removeFromHomeAssistant(options: RemovalOptions): Promise<RemovalResult> {
  const { logger, signal } = options;
  const counts = Object.fromEntries(removalKinds.map((kind) => [kind, 0])) as Record<RemovalKind, number>;
  const failed: RemovalKind[] = [];
  const connection = homeAssistantLink(options, { logger });
  const states = new StateWriter({ url: options.url, token: options.token, logger });
  const step = async (kinds: readonly RemovalKind[], run: () => Promise<void>) => {
    signal.throwIfAborted();
    try {
      await run();
    } catch (error) {
      signal.throwIfAborted();
      failed.push(...kinds);
      const reason = error instanceof Error ? error.message : String(error);
      logger.warn(`could not remove the ${kinds.map((kind) => removalWords[kind]).join(" and ")}: ${reason}`);
    }
  };
  try {
    await connection.open(signal).catch((error: unknown) => {
      if (error instanceof HomeAssistantAuthError || error instanceof HomeAssistantNotAdminError)
        throw new RemovalRefusedError(error.message, { cause: error });
      throw error;
    });
    await connection.whenReady(signal);
    const holder = options.force ? undefined : await livingHolder(options);
    if (holder)
      throw new RemovalRefusedError(
        `another Reward Facts bridge still publishes to this Home Assistant (${describeHolder(holder)}): ` +
          "stop it first, or it makes everything again (npm start -- --remove --force removes all the same)",
      );
    const names = contractNames;
    const besides = (options.besides ?? []).map((prefix) => new EntityNames(prefix));
    const broker = options.broker;
    if (broker) {
      await step(["discovery_configs", "state_topics"], async () => {
        const { sweepBroker } = await import("./broker-removal.js");
        await sweepBroker(broker, signal, counts, () => watchRegistry(connection, signal));
      });
    }
    // Devices and entities a broker no longer holds the configs of (a broker reinstalled, another
    // one set up since), or that were never dropped: removed from the registries directly.
    await step(["devices", "entities"], async () => {
      const left = await removeRegistryLeftovers(connection);
      counts.devices += left.devices;
      counts.entities += left.entities;
    });
    await step(["states"], async () => {
      const registered = new Set(
        (await connection.command<RegistryEntity[]>({ type: "config/entity_registry/list" })).map(
          (entry) => entry.entity_id,
        ),
      );
      const all = await connection.command<State[]>({ type: "get_states" });
      for (const { entity_id } of all) {
        if (registered.has(entity_id) || !isBridgeState(entity_id, names, besides)) continue;
        if (await states.removeState(entity_id)) counts.states++;
      }
    });
    await step(["helpers"], async () => {
      // None in this Home Assistant (recovery mode): no helper of the bridge's either.
      for (const item of (await listInputTexts(connection)) ?? []) {
        if (!isBridgeHelper(item.id, names)) continue;
        await deleteInputText(connection, item.id);
        counts.helpers++;
      }
    });
    // After the devices and the helpers: the label and the category they wore, unless a person
    // uses them elsewhere (on a device, an entity or an area of their own).
    await step(["labels"], async () => {
      counts.labels += await removeOrganizing(connection);
    });
    await step(["blueprints"], async () => {
      counts.blueprints += await removeBridgeBlueprints(connection, logger);
    });
    await step(["assistant_items"], async () => {
      const config = new ConfigApi({ url: options.url, token: options.token });
      try {
        for (const [kind, id] of assistantItems(names))
          if (await config.remove(kind, id)) counts.assistant_items++;
      } finally {
        await config.close();
      }
    });
    await step(["dashboards"], async () => {
      const place = dashboardPlace(names, textsFor(connection.language).texts);
      const listed = await connection.command<Array<{ url_path: string }>>({
        type: "lovelace/dashboards/list",
      });
      if (!listed.some((dashboard) => dashboard.url_path === place.urlPath)) return;
      if (await removeDashboard(connection, place)) counts.dashboards++;
      else
        logger.warn(
          { dashboard: `/${place.urlPath}` },
          "the dashboard was edited in Home Assistant: left as it is (delete it in Settings → Dashboards)",
        );
    });
    await step(["notifications"], async () => {
      const shown = await connection.command<Notification[]>({ type: "persistent_notification/get" });
      for (const { notification_id } of shown) {
        if (!isBridgeNotification(notification_id)) continue;
        await callService(connection, "persistent_notification", "dismiss", { notification_id });
        counts.notifications++;
      }
    });
  } finally {
    connection.close();
    await states.close();
  }
  const result = { counts, failed };
  for (const kind of removalKinds)
    if (!failed.includes(kind))
      logger.info({ removed: counts[kind] }, `removed the bridge's ${removalWords[kind]}`);
  logger.info(removalSummary(result));
  return result;
}

/** The names the bridge gives its label and category, in every language it speaks. */
const organizingNames = (part: "children_label" | "helpers_category") =>
  new Set(Object.values(languages).map((texts) => texts.organize[part]));

/**
 * Deletes the bridge's label and helpers' category where nothing wears them any longer; how many.
 * Releases before labels have neither.
 */
async function removeOrganizing(connection: HomeAssistantLink): Promise<number> {
  let removed = 0;
  const list = async <T>(message: { type: string; [key: string]: unknown }): Promise<T[] | undefined> =>
    connection.command<T[]>(message).catch((error: unknown) => {
      if (error instanceof HomeAssistantError && error.code === "unknown_command") return undefined;
      throw error;
    });
  const labels = await list<{ label_id: string; name: string }>({ type: "config/label_registry/list" });
  if (!labels) return 0;
  const devices = (await list<{ labels?: string[] }>({ type: "config/device_registry/list" })) ?? [];
  const entities =
    (await list<{ labels?: string[]; categories?: Record<string, string> }>({
      type: "config/entity_registry/list",
    })) ?? [];
  const areas = (await list<{ labels?: string[] }>({ type: "config/area_registry/list" })) ?? [];
  const worn = new Set([...devices, ...entities, ...areas].flatMap((entry) => entry.labels ?? []));
  const ours = organizingNames("children_label");
  for (const label of labels) {
    if (!ours.has(label.name) || worn.has(label.label_id)) continue;
    await connection.command({ type: "config/label_registry/delete", label_id: label.label_id });
    removed++;
  }
  const categories =
    (await list<{ category_id: string; name: string }>({
      type: "config/category_registry/list",
      scope: "helpers",
    })) ?? [];
  const filed = new Set(entities.map((entry) => entry.categories?.helpers).filter(Boolean));
  const ourCategories = organizingNames("helpers_category");
  for (const category of categories) {
    if (!ourCategories.has(category.name) || filed.has(category.category_id)) continue;
    await connection.command({
      type: "config/category_registry/delete",
      scope: "helpers",
      category_id: category.category_id,
    });
    removed++;
  }
  return removed;
}

/**
 * What the registries hold of the bridge's MQTT devices now, and the wait (once their configs are
 * cleared) until Home Assistant has dropped them, which says how many it dropped.
 */
async function watchRegistry(
  connection: HomeAssistantLink,
  signal: AbortSignal,
): Promise<() => Promise<{ devices: number; entities: number }>> {
  const before = await bridgeRegistry(connection);
  return async () => {
    const began = Date.now();
    let now = await bridgeRegistry(connection);
    while ((now.devices.length > 0 || now.entities.length > 0) && Date.now() - began < DEVICES_GONE_WAIT_MS) {
      signal.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 250));
      now = await bridgeRegistry(connection);
    }
    return {
      devices: before.devices.length - now.devices.length,
      entities: before.entities.length - now.entities.length,
    };
  };
}

async function bridgeRegistry(connection: HomeAssistantLink) {
  const [devices, entities] = await Promise.all([
    connection.command<RegistryDevice[]>({ type: "config/device_registry/list" }),
    connection.command<RegistryEntity[]>({ type: "config/entity_registry/list" }),
  ]);
  return { devices: devices.filter(isBridgeMqttDevice), entities: entities.filter(isBridgeMqttEntity) };
}

/** Removes what the registries still hold of the bridge's MQTT devices. */
async function removeRegistryLeftovers(
  connection: HomeAssistantLink,
): Promise<{ devices: number; entities: number }> {
  const { devices, entities } = await bridgeRegistry(connection);
  for (const entry of entities)
    await connection.command({ type: "config/entity_registry/remove", entity_id: entry.entity_id });
  for (const device of devices) {
    // MQTT's own removal of a device: it also clears its discovery topics through Home Assistant's client.
    for (const entry of device.config_entries)
      await connection
        .command({
          type: "config/device_registry/remove_config_entry",
          device_id: device.id,
          config_entry_id: entry,
        })
        .catch(() => undefined);
  }
  const after = await bridgeRegistry(connection);
  return { devices: devices.length - after.devices.length, entities: entities.length };
}
