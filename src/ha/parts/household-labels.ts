import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import { childNode } from "../entities/mqtt/topics.js";
import type { CommandLink } from "../link/command-link.js";
import { HomeAssistantError } from "../link/errors.js";
import type { Texts } from "../texts/texts.js";
import type { SinkPart } from "./sink-part.js";

// Home Assistant's labels and categories (2024.4 and later), so that the bridge's things sit
// apart from the household's own: a label in the household's language on each child's device
// (MQTT mode: REST-made states have no device), a user's own label of that name used as it is;
// the bridge's own helpers (its delivery records, its lease) in a category of their own. Only
// what carries none yet is given one: a person's choice is never undone. Releases without labels
// answer the commands as unknown: nothing is done there, and nothing is said again.

interface LabelEntry {
  label_id: string;
  name: string;
}

interface CategoryEntry {
  category_id: string;
  name: string;
}

interface DeviceEntry {
  id: string;
  identifiers: Array<[string, string]>;
  labels?: string[];
}

interface EntityEntry {
  entity_id: string;
  platform: string;
  unique_id: string;
  categories?: Record<string, string>;
}

export interface HouseholdLabelsOptions {
  link: CommandLink;
  /** Whether the link is up now: nothing is asked while it is not. */
  ready: () => boolean;
  logger: Logger;
  names: EntityNames;
  /** The household's language, as it is now. */
  texts: () => Texts;
  /** How the entities are published now: only MQTT makes devices. */
  mode: () => "rest" | "mqtt";
}

/** The category scope of helpers, in Home Assistant's category registry. */
const HELPERS = "helpers";

/** Whether Home Assistant said it has no such command (a release before labels). */
const unknownCommand = (error: unknown) =>
  error instanceof HomeAssistantError && error.code === "unknown_command";

export class HouseholdLabels implements SinkPart {
  readonly name = "labels";
  readonly #o: HouseholdLabelsOptions;
  #children: readonly ChildIdentity[] = [];
  /** False once Home Assistant said it has no labels; undefined until asked. */
  #supported: boolean | undefined;
  /** Every child's device labelled and every helper in its category: nothing to ask until a change. */
  #settled = false;
  #warned = false;

  constructor(options: HouseholdLabelsOptions) {
    this.#o = options;
  }

  /** A new connection: Home Assistant may have been restored from a backup meanwhile. */
  async running(): Promise<void> {
    this.#settled = false;
    await this.#keep();
  }

  async children(children: readonly ChildIdentity[]): Promise<void> {
    this.#children = children;
    this.#settled = false;
    if (this.#o.ready()) await this.#keep();
  }

  /** A discovered device registers a moment after its config: looked for again until it is there. */
  async childRead(): Promise<void> {
    if (!this.#settled && this.#o.ready()) await this.#keep();
  }

  /** Never throws: labels are not worth a fact. A failure is said once, then tried at the next turn. */
  async #keep(): Promise<void> {
    if (this.#supported === false) return;
    try {
      const labelled = this.#o.mode() === "mqtt" ? await this.#labelDevices() : true;
      await this.#categorizeHelpers();
      this.#supported = true;
      this.#settled = labelled;
    } catch (error) {
      if (unknownCommand(error)) {
        this.#supported = false;
        this.#o.logger.debug("this Home Assistant has no labels or categories (before 2024.4)");
        return;
      }
      if (!this.#warned)
        this.#o.logger.warn({ err: error }, "the children's label could not be set in Home Assistant");
      this.#warned = true;
    }
  }

  /** True once every child's device is there, and labelled. */
  async #labelDevices(): Promise<boolean> {
    const { link } = this.#o;
    // The MQTT device of each child, by its node (its identifier in the device registry).
    const wanted = new Set(this.#children.map((child) => childNode(child.id)));
    const devices = (await link.command<DeviceEntry[]>({ type: "config/device_registry/list" })).filter(
      (device) => device.identifiers.some(([domain, id]) => domain === "mqtt" && wanted.has(id)),
    );
    const unlabelled = devices.filter((device) => (device.labels ?? []).length === 0);
    if (unlabelled.length === 0) return devices.length === wanted.size;
    const label = await this.#childrenLabel();
    for (const device of unlabelled)
      await link.command({ type: "config/device_registry/update", device_id: device.id, labels: [label] });
    this.#o.logger.info({ devices: unlabelled.length }, "labelled the children's devices in Home Assistant");
    return devices.length === wanted.size;
  }

  /** The household's label for its children: a user's own of that name, or one made now. */
  async #childrenLabel(): Promise<string> {
    const { link } = this.#o;
    const name = this.#o.texts().organize.children_label;
    const labels = await link.command<LabelEntry[]>({ type: "config/label_registry/list" });
    const found = labels.find((label) => label.name.toLocaleLowerCase() === name.toLocaleLowerCase());
    if (found) return found.label_id;
    const made = await link.command<LabelEntry>({
      type: "config/label_registry/create",
      name,
      icon: "mdi:human-child",
    });
    return made.label_id;
  }

  async #categorizeHelpers(): Promise<void> {
    const { link, names } = this.#o;
    const helpers = (await link.command<EntityEntry[]>({ type: "config/entity_registry/list" })).filter(
      (entry) => entry.platform === "input_text" && names.isHelper(entry.unique_id),
    );
    const uncategorized = helpers.filter((entry) => !entry.categories?.[HELPERS]);
    if (uncategorized.length === 0) return;
    const category = await this.#helpersCategory();
    for (const entry of uncategorized)
      await link.command({
        type: "config/entity_registry/update",
        entity_id: entry.entity_id,
        categories: { ...entry.categories, [HELPERS]: category },
      });
  }

  async #helpersCategory(): Promise<string> {
    const { link } = this.#o;
    const name = this.#o.texts().organize.helpers_category;
    const categories = await link.command<CategoryEntry[]>({
      type: "config/category_registry/list",
      scope: HELPERS,
    });
    const found = categories.find((category) => category.name === name);
    if (found) return found.category_id;
    const made = await link.command<CategoryEntry>({
      type: "config/category_registry/create",
      scope: HELPERS,
      name,
      icon: "mdi:robot-outline",
    });
    return made.category_id;
  }
}
