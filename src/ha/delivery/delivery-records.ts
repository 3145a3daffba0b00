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
import { en } from "../texts/en.js";
import { fill, languages, type Texts } from "../texts/texts.js";
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
  readonly #texts: () => Texts;

  constructor(link: CommandLink, logger: Logger, names: EntityNames, texts: () => Texts = () => en) {
    this.#link = link;
    this.#logger = logger;
    this.#names = names;
    this.#texts = texts;
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
      } else if ((item.max ?? 0) < RECORD_MAX_LENGTH || this.#renamed(item, record.child, record.stream)) {
        await this.#widen(item, record.child, record.stream);
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
      name: recordName(this.#texts(), child, stream),
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
   * Whether a record bears a name the bridge gave it in another language than the household's now
   * (or before names followed it): named again. A name a person gave it stays.
   */
  #renamed(item: InputTextItem, child: ChildRef, stream: DeliveryStream): boolean {
    const wanted = recordName(this.#texts(), child, stream);
    if (item.name === wanted) return false;
    return Object.values(languages).some((texts) => recordName(texts, child, stream) === item.name);
  }

  /**
   * A record left holding at most 100 characters (earlier versions renamed it with an update that
   * reset its max) is widened, before a longer id is refused; one named in another language is
   * named in the household's. Its other settings are kept (an update says them all again).
   */
  async #widen(item: InputTextItem, child: ChildRef, stream: DeliveryStream): Promise<void> {
    const { id, ...settings } = item;
    const name = this.#renamed(item, child, stream) ? recordName(this.#texts(), child, stream) : item.name;
    await updateInputText(this.#link, id, { ...settings, name, max: RECORD_MAX_LENGTH });
    if ((item.max ?? 0) < RECORD_MAX_LENGTH)
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

/** The name a record is shown by, in the household's language. */
function recordName(texts: Texts, child: ChildRef, stream: DeliveryStream): string {
  return fill(stream === "journal" ? texts.helpers.delivery_record : texts.helpers.derived_record, {
    child: child.firstName,
  });
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
