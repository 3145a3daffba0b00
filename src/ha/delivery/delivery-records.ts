import type { ChildRef } from "../../engine/sink.js";
import type { Logger } from "../../log/logger.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { CommandLink } from "../link/command-link.js";
import {
  createInputText,
  deleteInputText,
  hideEntity,
  type InputTextItem,
  listInputTexts,
  updateInputText,
} from "../link/input-text-helpers.js";
import { type DeliveryStream, deliveryStreams, streamKey } from "./delivery-stream.js";

/**
 * The longest value a record holds: Home Assistant's longest state. A derived fact's id (child,
 * day, kind, subject) runs past 100 characters, input_text's default, and a value too long is
 * refused with no more than a line in Home Assistant's log: the record would stay behind.
 */
const RECORD_MAX_LENGTH = 255;
const RECORD_ICON = "mdi:clipboard-check-outline";

interface RegistryEntry {
  entity_id: string;
  platform: string;
  unique_id: string;
}

/**
 * Two `input_text` helpers per child in Home Assistant, one per stream of her facts (her journal's,
 * and those derived from her day: delivery-stream.ts), each holding the id of the last fact of its
 * stream fired: the record the delivery script checks and updates (delivery-script.ts). Home
 * Assistant keeps them in its state machine and restores them after a restart, which is what makes
 * a fact in doubt resolvable after a crash of the bridge.
 *
 * Helpers are found by their id, derived from the child's id (never its name, so renaming a child
 * keeps its record), created when missing and hidden from auto-generated dashboards. Home
 * Assistant sets up `input_text` by itself (a built-in helper, whatever the configuration); one
 * that has not (recovery mode) cannot keep records, and delivery then goes without (see HomeAssistantSink).
 */
export class DeliveryRecords {
  readonly #link: CommandLink;
  readonly #logger: Logger;
  readonly #names: EntityNames;
  /** By child and stream (streamKey). */
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

  entityFor(childId: string, stream: DeliveryStream = "journal"): string | undefined {
    return this.#entityIds.get(streamKey(childId, stream));
  }

  /** Forgets what is known (after a reconnect: Home Assistant may have lost a new helper). */
  reset(): void {
    this.#entityIds.clear();
  }

  /** Finds or creates both records of `children`; false when Home Assistant cannot keep them. */
  async ensure(children: readonly ChildRef[]): Promise<boolean> {
    const missing = children.flatMap((child) =>
      deliveryStreams
        .filter((stream) => !this.#entityIds.has(streamKey(child.id, stream)))
        .map((stream) => ({ child, stream })),
    );
    if (this.#supported === false) return false;
    if (missing.length === 0) return true;
    const items = await listInputTexts(this.#link);
    if (!items) {
      this.#unsupported();
      return false;
    }
    this.#supported = true;
    const known = new Map(items.map((item) => [item.id, item]));
    const created: string[] = [];
    const wanted = new Map<string, { child: ChildRef; stream: DeliveryStream }>();
    for (const record of missing) {
      let id = recordIdOf(record.child.id, this.#names, record.stream);
      const item = known.get(id);
      if (!item) {
        id = await this.#create(record.child, record.stream);
        created.push(id);
      } else if ((item.max ?? 0) < RECORD_MAX_LENGTH) {
        await this.#widen(item, record.child);
      }
      wanted.set(id, record);
    }
    const registry = await this.#link.command<RegistryEntry[]>({ type: "config/entity_registry/list" });
    for (const entry of registry) {
      const record = entry.platform === "input_text" ? wanted.get(entry.unique_id) : undefined;
      if (!record) continue;
      this.#entityIds.set(streamKey(record.child.id, record.stream), entry.entity_id);
      if (created.includes(entry.unique_id)) await hideEntity(this.#link, entry.entity_id);
    }
    return true;
  }

  /** Deletes the records found or made in this run, of both streams (the demo's, when it stops). */
  async removeAll(): Promise<void> {
    const registry = await this.#link.command<RegistryEntry[]>({ type: "config/entity_registry/list" });
    const ours = new Set(this.#entityIds.values());
    for (const entry of registry) {
      if (entry.platform !== "input_text" || !ours.has(entry.entity_id)) continue;
      await deleteInputText(this.#link, entry.unique_id);
    }
    this.#entityIds.clear();
  }

  async #create(child: ChildRef, stream: DeliveryStream): Promise<string> {
    // The name at creation sets the id (and the entity id); the readable name comes after.
    const id = await createInputText(this.#link, {
      id: `${recordPrefixOf(this.#names, stream)}${child.id}`,
      name: `Reward Facts ${stream === "journal" ? "delivery" : "derived facts"} record (${child.firstName})`,
      max: RECORD_MAX_LENGTH,
      icon: RECORD_ICON,
    });
    this.#logger.info(
      { child: child.firstName, helper: id, stream },
      "created the child's delivery record in Home Assistant",
    );
    return id;
  }

  /**
   * A record left holding at most 100 characters (earlier versions renamed it with an update that
   * reset its max): widened, its other settings kept, before a longer id is refused.
   */
  async #widen(item: InputTextItem, child: ChildRef): Promise<void> {
    const { id, ...settings } = item;
    await updateInputText(this.#link, id, { ...settings, max: RECORD_MAX_LENGTH });
    this.#logger.info(
      { child: child.firstName, helper: id, was: item.max ?? null },
      "widened the child's delivery record in Home Assistant to hold any fact's id",
    );
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

/** What a record of `stream` is named from at creation, before the child's id. */
function recordPrefixOf(names: EntityNames, stream: DeliveryStream): string {
  return stream === "journal" ? names.recordPrefix : names.derivedRecordPrefix;
}

/** The helper's id for a child's record of `stream`, as Home Assistant's slugify makes it from the creation name. */
export function recordIdOf(childId: string, names: EntityNames, stream: DeliveryStream = "journal"): string {
  return `${recordPrefixOf(names, stream)}${childId}`
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
