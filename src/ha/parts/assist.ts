import type { Logger } from "../../log/logger.js";
import type { ChildEntityKind } from "../entities/catalogue.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { CommandLink } from "../link/command-link.js";
import { fill, type Texts } from "../texts/texts.js";
import type { SinkPart } from "./sink-part.js";

/*
 * Assist (voice and text) answers "What is Léa's streak?" with Home Assistant's own intents for the
 * entities exposed to it. The bridge exposes each child's entities to Assist once, when it first
 * publishes them, and gives each registry entity (MQTT mode) an alias in the household's language
 * ("Léa's minutes left", "série de Léa"). What it did is kept: an entity a user has since hidden
 * from Assist is never exposed again, an alias is given only to an entity that has none, and only
 * an alias the bridge gave is changed when the language changes. The questions the built-in
 * intents cannot take ("How many minutes does Léa have left?") come with the assist_answers
 * blueprint.
 */

/** The entities of a child that Assist is told of. */
export const ASSIST_KINDS: readonly ChildEntityKind[] = [
  "minutes_remaining",
  "minutes_unlocked",
  "minutes_consumed",
  "points",
  "streak",
  "session_ends_at",
  "session_running",
  "my_day",
];

/** What the bridge did, kept across restarts: never done twice, never undone over a user's choice. */
export interface AssistMemory {
  load(): Promise<AssistRecord | undefined>;
  save(record: AssistRecord): Promise<void>;
}

export interface AssistRecord {
  /** Entities the bridge exposed (or found exposed) once. */
  exposed: string[];
  /** The alias the bridge gave each entity (absent: none given, the user's own kept). */
  aliases: Record<string, string>;
}

interface RegistryEntry {
  entity_id: string;
  aliases?: Array<string | null>;
}

export interface AssistExposureOptions {
  link: CommandLink;
  /** Whether the link is up now: nothing is offered while it is not. */
  ready: () => boolean;
  /** The household's language, as it is now. */
  texts: () => Texts;
  names: EntityNames;
  logger: Logger;
  memory: AssistMemory | undefined;
  /** The `assist` option: off, the bridge tells Assist nothing. */
  enabled: boolean;
  /** Whether the entities are registry entities (MQTT mode), which alone can have aliases. */
  registryEntities: () => boolean;
}

export class AssistExposure implements SinkPart {
  readonly name = "assist";
  readonly #o: AssistExposureOptions;
  #record: AssistRecord | undefined;
  #warned = false;

  constructor(options: AssistExposureOptions) {
    this.#o = options;
  }

  /** Once a child's entities exist (a discovered entity registers a moment after its config). */
  async childRead(child: ChildIdentity): Promise<void> {
    if (this.#o.ready()) await this.keep([child], this.#o.texts());
  }

  /** Exposes the children's entities not exposed before, and gives aliases where none are (never throws). */
  async keep(children: readonly ChildIdentity[], texts: Texts): Promise<void> {
    if (!this.#o.enabled || children.length === 0) return;
    try {
      await this.#keep(children, texts);
    } catch (error) {
      if (!this.#warned)
        this.#o.logger.warn(
          { err: error },
          "the children's entities could not be offered to Assist; trying again later",
        );
      this.#warned = true;
    }
  }

  async #keep(children: readonly ChildIdentity[], texts: Texts): Promise<void> {
    const { link, names } = this.#o;
    const record = await this.#load();
    let changed = false;
    const entityIds = children.flatMap((child) => ASSIST_KINDS.map((kind) => names.child(child.slug, kind)));
    // Called at every reading: nothing to ask Home Assistant once all is done in this language.
    const aliasing = this.#o.registryEntities();
    const settled = children.every((child) =>
      (aliasing ? ALIASED : []).every((kind) => {
        const given = record.aliases[names.child(child.slug, kind)];
        return given === "" || given === fill(texts.assist[kind], { child: child.firstName });
      }),
    );
    if (settled && entityIds.every((id) => record.exposed.includes(id))) return;
    const fresh = entityIds.filter((id) => !record.exposed.includes(id));
    if (fresh.length > 0) {
      await link.command({
        type: "homeassistant/expose_entity",
        assistants: ["conversation"],
        entity_ids: fresh,
        should_expose: true,
      });
      record.exposed.push(...fresh);
      changed = true;
      this.#o.logger.info({ entities: fresh.length }, "offered the children's entities to Assist");
    }
    if (!aliasing) {
      if (changed) await this.#o.memory?.save(record);
      return;
    }
    const registry = new Map(
      (await link.command<RegistryEntry[]>({ type: "config/entity_registry/list" })).map((entry) => [
        entry.entity_id,
        entry,
      ]),
    );
    for (const child of children) {
      for (const kind of ALIASED) {
        const entityId = names.child(child.slug, kind);
        const entry = registry.get(entityId);
        // REST-made states are no registry entities: Assist knows them by their name alone.
        if (!entry) continue;
        const wanted = fill(texts.assist[kind], { child: child.firstName });
        const given = record.aliases[entityId];
        if (given === "") continue;
        const current = entry.aliases ?? (await this.#aliasesOf(entityId));
        // Recent releases list the entity's own name among its aliases, as null: not a user's alias.
        const own = current.filter((alias): alias is string => typeof alias === "string");
        const stillOurs = given !== undefined && own.length === 1 && own[0] === given;
        if ((given === undefined && own.length > 0) || (given !== undefined && !stillOurs)) {
          // The user's own aliases: theirs for good.
          record.aliases[entityId] = "";
          changed = true;
        } else if (given !== wanted) {
          // None yet, or ours in another language (or for an earlier first name).
          const aliases = [...current.filter((alias) => alias === null), wanted];
          await link.command({ type: "config/entity_registry/update", entity_id: entityId, aliases });
          record.aliases[entityId] = wanted;
          changed = true;
        }
      }
    }
    if (changed) await this.#o.memory?.save(record);
  }

  /**
   * Everything this run published goes (the demo's stop): what the bridge offered Assist is taken
   * back too. Home Assistant keeps an exposure apart from the state (a REST-made state has no
   * registry entry to take it along), so Settings → Voice assistants → Expose would go on listing
   * entities that no longer exist. Never throws: the other parts' removal goes on.
   */
  async remove(): Promise<void> {
    try {
      const record = await this.#load();
      if (record.exposed.length === 0) return;
      await withdrawFromAssist(this.#o.link, record.exposed);
      // The memory stays as it is: the app has closed the store by the time the sink closes, and
      // the demo, the one run that removes at its stop, throws its store away.
      this.#o.logger.info(
        { entities: record.exposed.length },
        "took the children's entities back from Assist",
      );
    } catch (error) {
      this.#o.logger.warn({ err: error }, "the children's entities could not be taken back from Assist");
    }
  }

  /** An entity's aliases, where the registry's list leaves them out (older releases). */
  async #aliasesOf(entityId: string): Promise<Array<string | null>> {
    const entry = await this.#o.link.command<RegistryEntry>({
      type: "config/entity_registry/get",
      entity_id: entityId,
    });
    return entry.aliases ?? [];
  }

  async #load(): Promise<AssistRecord> {
    if (!this.#record) {
      const stored = await this.#o.memory?.load().catch(() => undefined);
      this.#record = {
        exposed: Array.isArray(stored?.exposed) ? [...stored.exposed] : [],
        aliases: stored?.aliases && typeof stored.aliases === "object" ? { ...stored.aliases } : {},
      };
    }
    return this.#record;
  }
}

/**
 * Exposes the entities to no assistant any longer: Home Assistant 2026.11 then leaves them out of
 * its exposed list, older releases list them with every assistant off (neither shows them exposed).
 */
export async function withdrawFromAssist(link: CommandLink, entityIds: readonly string[]): Promise<void> {
  await link.command({
    type: "homeassistant/expose_entity",
    assistants: ["conversation"],
    entity_ids: [...entityIds],
    should_expose: false,
  });
}

/** The entities given an alias: what a parent asks Assist about. */
const ALIASED = ["minutes_remaining", "session_running", "streak"] as const;
