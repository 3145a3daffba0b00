import type { ApiEvent } from "../../api/schemas.js";
import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { StateWriter, WrittenState } from "../link/state-writer.js";
import type { Texts } from "../texts/texts.js";
import { type DiaryEntry, diaryEntryOf, diaryLine } from "./diary-line.js";
import { OrderedWrites } from "./ordered-writes.js";
import type { SinkPart } from "./sink-part.js";

// Each child's latest facts as a diary (`sensor.reward_facts_<child>_latest_facts`): one line a
// fact, in the household's language, with the fact's own time, each fact once. The dashboard's
// "Latest facts" card reads it. A fact is kept by its id, so one met again (already in Home
// Assistant after a restart) is not written twice, and the diary is kept in the data folder, so
// a restart of the bridge starts from it. Written through REST in both modes: a state of the
// bridge's making, written again whenever Home Assistant comes back (it forgets such states).

/** The facts a diary keeps, newest first. */
export const DIARY_LENGTH = 8;

/** Where the diaries are kept across restarts of the bridge (bridge-memories.ts). */
export interface DiaryMemory {
  load(): Promise<Readonly<Record<string, readonly DiaryEntry[]>> | undefined>;
  save(diaries: Readonly<Record<string, readonly DiaryEntry[]>>): Promise<void>;
}

export interface FactDiaryOptions {
  states: StateWriter;
  names: EntityNames;
  texts: () => Texts;
  logger: Logger;
  memory: DiaryMemory | undefined;
  /** Whether Home Assistant is up: until it is, the diaries wait for its `running` (no retries in vain). */
  ready: () => boolean;
}

export class FactDiary implements SinkPart {
  readonly name = "fact diary";
  readonly #o: FactDiaryOptions;
  /** The children followed, by id. */
  #children = new Map<string, ChildIdentity>();
  /** Each child's diary, newest first, by child id. */
  #diaries = new Map<string, DiaryEntry[]>();
  #loaded: Promise<void> | undefined;
  readonly #writes: OrderedWrites;

  constructor(options: FactDiaryOptions) {
    this.#o = options;
    this.#writes = new OrderedWrites(options.logger, "the latest facts");
  }

  async children(children: readonly ChildIdentity[]): Promise<void> {
    await this.#load();
    const gone = [...this.#children.values()].filter((child) => !children.some((c) => c.id === child.id));
    this.#children = new Map(children.map((child) => [child.id, child]));
    for (const child of gone) this.#writes.add(() => this.#o.states.removeState(this.#entityId(child)));
    if (this.#o.ready()) this.#writes.add(() => this.#writeAll(false));
  }

  async factDelivered(childId: string, fact: ApiEvent): Promise<void> {
    await this.#load();
    const diary = this.#diaries.get(childId) ?? [];
    if (diary.some((entry) => entry.id === fact.id)) return;
    const entry = diaryEntryOf(fact);
    const updated = [...diary, entry]
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
      .slice(0, DIARY_LENGTH);
    this.#diaries.set(childId, updated);
    // Not awaited: a fact's delivery does not wait for its line (written in order, failures logged).
    this.#writes.add(async () => {
      await this.#o.memory?.save(Object.fromEntries(this.#diaries));
      const child = this.#children.get(childId);
      if (child && this.#o.ready()) await this.#o.states.write([this.#state(child)]);
    });
  }

  /** Home Assistant is back: it forgot the diaries (REST-made states), written again. */
  async running(): Promise<void> {
    await this.#load();
    this.#writes.add(() => this.#writeAll(true));
    await this.#writes.settled();
  }

  async language(): Promise<void> {
    if (this.#o.ready()) this.#writes.add(() => this.#writeAll(false));
    await this.#writes.settled();
  }

  async remove(): Promise<void> {
    await this.#writes.settled();
    for (const child of this.#children.values()) await this.#o.states.removeState(this.#entityId(child));
  }

  /** The diaries' states as they are now (tests and the removal read them). */
  statesNow(): WrittenState[] {
    return [...this.#children.values()].map((child) => this.#state(child));
  }

  #state(child: ChildIdentity): WrittenState {
    const texts = this.#o.texts();
    const facts = (this.#diaries.get(child.id) ?? []).map((entry) => ({
      id: entry.id,
      at: entry.at,
      type: entry.type,
      text: diaryLine(texts, child.firstName, entry),
    }));
    return {
      entityId: this.#entityId(child),
      state: (facts[0]?.text ?? texts.diary.none_yet).slice(0, 255),
      attributes: {
        facts,
        child_id: child.id,
        child_name: child.firstName,
        friendly_name: `${child.firstName} ${texts.dashboard.latest_facts}`,
        icon: "mdi:notebook-outline",
      },
    };
  }

  #entityId(child: ChildIdentity): string {
    return this.#o.names.childExtra(child.slug, "latest_facts");
  }

  async #writeAll(again: boolean): Promise<void> {
    if (this.#children.size === 0) return;
    await this.#o.states.write(this.statesNow(), { again });
  }

  #load(): Promise<void> {
    this.#loaded ??= (async () => {
      const kept = await this.#o.memory?.load();
      for (const [childId, entries] of Object.entries(kept ?? {})) this.#diaries.set(childId, [...entries]);
    })();
    return this.#loaded;
  }
}
