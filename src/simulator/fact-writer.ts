import type { ApiEvent } from "../api/schemas.js";
import { type SimClock, toEpochMs } from "./clock.js";
import { buildEvent, cheers, type FactFields } from "./facts.js";
import type { SimChild } from "./household.js";
import type { Journal } from "./journal.js";
import { uuidFrom } from "./random.js";
import { parseIsoInstant } from "./since.js";
import { localDateOf } from "./zoned-time.js";

export interface FactTiming {
  /** When the fact is recorded (ms or ISO 8601); now by default. It shows once the clock gets there. */
  at?: number | string;
}

/** Facts added by tests: ids stay deterministic (seed and a counter), so runs repeat. */
export class FactWriter {
  readonly #journal: Journal;
  readonly #clock: SimClock;
  readonly #timeZone: string;
  readonly #seed: number;
  #count = 0;

  constructor(journal: Journal, clock: SimClock, timeZone: string, seed: number) {
    this.#journal = journal;
    this.#clock = clock;
    this.#timeZone = timeZone;
    this.#seed = seed;
  }

  add(child: SimChild, fields: FactFields, timing: FactTiming = {}): ApiEvent {
    const recordedAt = this.#instant(timing);
    const event = buildEvent(child, this.#nextId(), recordedAt, this.#timeZone, fields);
    this.#journal.add(child, { recordedAt, id: event.id, body: event, event });
    return event;
  }

  /** n facts sharing one recorded instant (cheers by default, which move no minutes). */
  addMany(child: SimChild, n: number, timing: FactTiming = {}, fields?: FactFields): ApiEvent[] {
    const at = this.#instant(timing);
    return Array.from({ length: n }, (_, i) =>
      this.add(child, fields ?? { type: "cheer_sent", cheer: cheers[i % cheers.length] ?? "bravo" }, { at }),
    );
  }

  /**
   * An entry served exactly as given, except that id, at, day and childId are filled in when the
   * object lacks those keys (a key present with the value undefined is left out of the JSON).
   * Its place in the journal comes from its own `at` when readable, else from the timing.
   */
  addRaw(
    child: SimChild,
    raw: Record<string, unknown>,
    timing: FactTiming = {},
  ): { id: string; recordedAt: number } {
    const ownAt = typeof raw.at === "string" ? parseIsoInstant(raw.at) : undefined;
    const recordedAt = timing.at === undefined && ownAt !== undefined ? ownAt : this.#instant(timing);
    const ownId = typeof raw.id === "string" && /^[^\s,]+$/.test(raw.id) ? raw.id : undefined;
    const id = ownId ?? this.#nextId();
    const body = {
      ...("id" in raw ? {} : { id }),
      ...("at" in raw ? {} : { at: new Date(recordedAt).toISOString() }),
      ...("day" in raw ? {} : { day: localDateOf(recordedAt, this.#timeZone) }),
      ...("childId" in raw ? {} : { childId: child.id }),
      ...raw,
    };
    this.#journal.add(child, { recordedAt, id, body, event: undefined });
    return { id, recordedAt };
  }

  #instant(timing: FactTiming): number {
    return timing.at === undefined ? this.#clock.now() : toEpochMs(timing.at);
  }

  /**
   * Ids grow with each fact added (a counter in the first 8 hex digits, like time-ordered UUIDs):
   * a fact added within the millisecond of a page already served sorts after that page's
   * cursor, as the spec promises ("only newer events"), instead of behind it for ever.
   */
  #nextId(): string {
    const count = this.#count++;
    return `${count.toString(16).padStart(8, "0")}${uuidFrom(this.#seed, "added", count).slice(8)}`;
  }
}
