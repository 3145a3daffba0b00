import type { ChildRef } from "../engine/sink.js";
import type { Logger } from "../log/logger.js";
import type { CommandLink } from "./command-link.js";
import type { EntityNames } from "./entity-names.js";
import { HomeAssistantError } from "./errors.js";

interface InputTextItem {
  id: string;
  name: string;
}

interface RegistryEntry {
  entity_id: string;
  platform: string;
  unique_id: string;
}

/**
 * One `input_text` helper per child in Home Assistant, holding the id of the child's last fired
 * fact: the record the delivery script checks and updates (delivery-script.ts). Home Assistant
 * keeps it in its state machine and restores it after a restart, which is what makes a fact in
 * doubt resolvable after a crash of the bridge.
 *
 * Helpers are found by their id, derived from the child's id (never its name, so renaming a child
 * keeps its record), created when missing and hidden from auto-generated dashboards. Home
 * Assistant sets up `input_text` by itself (a built-in helper, whatever the configuration); one
 * that has not (recovery mode) cannot keep records, and delivery then goes without (see HaSink).
 */
export class DeliveryRecords {
  readonly #link: CommandLink;
  readonly #logger: Logger;
  readonly #names: EntityNames;
  readonly #entityIds = new Map<string, string>();
  #supported: boolean | undefined;
  #warned = false;

  constructor(link: CommandLink, logger: Logger, names: EntityNames) {
    this.#link = link;
    this.#logger = logger;
    this.#names = names;
  }

  /** false once Home Assistant has said it has no `input_text`; undefined until asked. */
  get supported(): boolean | undefined {
    return this.#supported;
  }

  entityFor(childId: string): string | undefined {
    return this.#entityIds.get(childId);
  }

  /** Forgets what is known (after a reconnect: Home Assistant may have lost a new helper). */
  reset(): void {
    this.#entityIds.clear();
  }

  /** Finds or creates the records of `children`; false when Home Assistant cannot keep them. */
  async ensure(children: readonly ChildRef[]): Promise<boolean> {
    const missing = children.filter((child) => !this.#entityIds.has(child.id));
    if (this.#supported === false) return false;
    if (missing.length === 0) return true;
    let items: InputTextItem[];
    try {
      items = await this.#link.command<InputTextItem[]>({ type: "input_text/list" });
    } catch (error) {
      if (error instanceof HomeAssistantError && error.code === "unknown_command") {
        this.#unsupported();
        return false;
      }
      throw error;
    }
    this.#supported = true;
    const known = new Set(items.map((item) => item.id));
    const created: string[] = [];
    const wanted = new Map<string, ChildRef>();
    for (const child of missing) {
      let id = recordIdOf(child.id, this.#names);
      if (!known.has(id)) {
        id = await this.#create(child);
        created.push(id);
      }
      wanted.set(id, child);
    }
    const registry = await this.#link.command<RegistryEntry[]>({ type: "config/entity_registry/list" });
    for (const entry of registry) {
      const child = entry.platform === "input_text" ? wanted.get(entry.unique_id) : undefined;
      if (!child) continue;
      this.#entityIds.set(child.id, entry.entity_id);
      if (created.includes(entry.unique_id)) {
        // Bookkeeping, not something to show: kept off auto-generated dashboards.
        await this.#link.command({
          type: "config/entity_registry/update",
          entity_id: entry.entity_id,
          hidden_by: "user",
        });
      }
    }
    return true;
  }

  /** Deletes the records found or made in this run (the demo's, when it stops). */
  async removeAll(): Promise<void> {
    const registry = await this.#link.command<RegistryEntry[]>({ type: "config/entity_registry/list" });
    const ours = new Set(this.#entityIds.values());
    for (const entry of registry) {
      if (entry.platform !== "input_text" || !ours.has(entry.entity_id)) continue;
      await this.#link.command({ type: "input_text/delete", input_text_id: entry.unique_id });
    }
    this.#entityIds.clear();
  }

  async #create(child: ChildRef): Promise<string> {
    // The name at creation sets the id (and the entity id); the readable name comes after.
    const item = await this.#link.command<InputTextItem>({
      type: "input_text/create",
      name: `${this.#names.recordPrefix}${child.id}`,
      max: 255,
      icon: "mdi:clipboard-check-outline",
    });
    await this.#link.command({
      type: "input_text/update",
      input_text_id: item.id,
      name: `Reward Facts delivery record (${child.firstName})`,
    });
    this.#logger.info(
      { child: child.firstName, helper: item.id },
      "created the child's delivery record in Home Assistant",
    );
    return item.id;
  }

  #unsupported(): void {
    this.#supported = false;
    if (this.#warned) return;
    this.#warned = true;
    this.#logger.warn(
      "Home Assistant has not set up its input_text helpers (recovery mode?): facts are delivered without a " +
        "record, and one whose delivery is in doubt after a crash is sent again, marked redelivered",
    );
  }
}

/** The helper's id for a child, as Home Assistant's slugify makes it from the creation name. */
export function recordIdOf(childId: string, names: EntityNames): string {
  return `${names.recordPrefix}${childId}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
