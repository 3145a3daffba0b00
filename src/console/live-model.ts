import type { Today } from "../api/schemas.js";
import type { Fact } from "../engine/derived-facts.js";
import type { ChildRef, EngineStatus } from "../engine/sink.js";

/** One line of the children table: the last reading, or why there is none. */
export interface ChildRow {
  child: ChildRef;
  /** null until the first reading. */
  today: Today | null;
  /** The reason the child cannot be read, or null while it can. */
  unavailable: string | null;
}

export interface EventRow {
  child: ChildRef;
  event: Fact;
  /** Order of arrival: breaks ties between facts of the same instant. */
  seq: number;
}

/** Everything the live view shows, at one moment. */
export interface LiveFrame {
  children: readonly ChildRow[];
  status: EngineStatus | null;
  events: readonly EventRow[];
}

export const DEFAULT_MAX_EVENTS = 8;

/**
 * The `max` latest facts, newest first. Ordered by the fact's own instant rather than by arrival:
 * the first poll of each child brings the whole day at once, child after child, and a timeline
 * reads better than the order in which the children happened to be polled.
 */
export function latestEvents(events: readonly EventRow[], max: number): EventRow[] {
  return [...events]
    .sort((a, b) => Date.parse(b.event.at) - Date.parse(a.event.at) || b.seq - a.seq)
    .slice(0, Math.max(0, max));
}

/** What the sink has been told so far, kept small: the view only ever shows the latest facts. */
export class LiveModel {
  readonly #maxEvents: number;
  #children: ChildRow[] = [];
  #status: EngineStatus | null = null;
  #events: EventRow[] = [];
  #seq = 0;

  constructor(maxEvents: number = DEFAULT_MAX_EVENTS) {
    this.#maxEvents = maxEvents;
  }

  /** The engine's list, in its order; a child already shown keeps its last reading. */
  setChildren(children: readonly ChildRef[]): void {
    const known = new Map(this.#children.map((row) => [row.child.id, row]));
    this.#children = children.map((child) => {
      const row = known.get(child.id);
      return row ? { ...row, child } : { child, today: null, unavailable: null };
    });
  }

  setToday(child: ChildRef, today: Today): void {
    this.#update(child, { today, unavailable: null });
  }

  setUnavailable(child: ChildRef, reason: string): void {
    this.#update(child, { unavailable: reason });
  }

  addEvent(child: ChildRef, event: Fact): void {
    this.#events = latestEvents([...this.#events, { child, event, seq: this.#seq++ }], this.#maxEvents);
  }

  setStatus(status: EngineStatus): void {
    this.#status = status;
  }

  frame(): LiveFrame {
    return { children: this.#children, status: this.#status, events: this.#events };
  }

  #update(child: ChildRef, change: Partial<Omit<ChildRow, "child">>): void {
    const index = this.#children.findIndex((row) => row.child.id === child.id);
    const row = this.#children[index];
    if (row) this.#children[index] = { ...row, ...change };
    else this.#children.push({ child, today: null, unavailable: null, ...change });
  }
}
