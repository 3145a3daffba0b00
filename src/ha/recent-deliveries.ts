import type { ChildRef, FactDelivery } from "../engine/sink.js";

/*
 * Home Assistant answers a delivery once it has fired the event; what the event sets off runs
 * after (automations, queued behind one another; each websocket subscriber's copy). A Home
 * Assistant killed a moment later takes those with it, and comes back with the states of its last
 * save, up to 15 minutes old: the child's delivery record then sits behind the facts it answered.
 * Which of those set anything off cannot be known. Rather than lose them, the facts it answered
 * shortly before the link dropped, after the one its record still names, go again, marked
 * `redelivered` so that an automation which must not repeat itself can skip them.
 *
 * Kept in memory: a bridge that dies together with Home Assistant forgets them (README, Delivery).
 */

/** How long before the link dropped an answered fact may still have set nothing off. */
export const REDELIVERY_WINDOW_MS = 30_000;
/** At most this many answered facts kept per child (a catch-up can answer hundreds a second). */
const PER_CHILD_LIMIT = 1_000;

export interface RecentDelivery {
  child: ChildRef;
  delivery: FactDelivery;
  /** When Home Assistant last answered it (epoch ms). */
  answeredAt: number;
}

/** The facts Home Assistant answered lately, per child, in the order they were sent. */
export class RecentDeliveries {
  readonly #windowMs: number;
  readonly #byChild = new Map<string, RecentDelivery[]>();
  /** The earliest drop of the link not yet followed by a check of the records. */
  #droppedAt: number | undefined;

  constructor(windowMs = REDELIVERY_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  /** Home Assistant answered `delivery` (again, when it was a redelivery: it keeps its place). */
  answered(child: ChildRef, delivery: FactDelivery, at = Date.now()): void {
    // While a drop is unsettled, what it may owe stays, however long the check takes.
    const oldest = Math.min(at, this.#droppedAt ?? at) - this.#windowMs;
    const kept = (this.#byChild.get(child.id) ?? []).filter((entry) => entry.answeredAt >= oldest);
    const same = kept.find((entry) => entry.delivery.event.id === delivery.event.id);
    if (same) same.answeredAt = at;
    else kept.push({ child, delivery, answeredAt: at });
    this.#byChild.set(child.id, kept.slice(-PER_CHILD_LIMIT));
  }

  /** The link dropped; the earliest drop not yet settled is kept. */
  dropped(at = Date.now()): void {
    this.#droppedAt ??= at;
  }

  /** A drop whose records have not been checked yet, or whose owed facts have not all gone. */
  get unsettled(): boolean {
    return this.#droppedAt !== undefined;
  }

  /** The records were checked after the drop and every fact owed was sent again. */
  settled(): void {
    this.#droppedAt = undefined;
  }

  /** The children with facts answered within the window before the unsettled drop. */
  childrenInDoubt(): ChildRef[] {
    const droppedAt = this.#droppedAt;
    if (droppedAt === undefined) return [];
    return [...this.#byChild.values()]
      .filter((entries) => entries.some((entry) => inWindow(entry, droppedAt, this.#windowMs)))
      .flatMap((entries) => entries.slice(0, 1).map((entry) => entry.child));
  }

  /**
   * What to send again for a child whose record, after the drop, names `recordedFactId`: the facts
   * answered within the window before the drop that come after the recorded one; none when the
   * record names the last fact answered (Home Assistant kept everything: no crash, or a clean stop).
   */
  owed(childId: string, recordedFactId: string | undefined): RecentDelivery[] {
    const droppedAt = this.#droppedAt;
    const entries = this.#byChild.get(childId) ?? [];
    if (droppedAt === undefined || entries.length === 0) return [];
    const recorded = entries.findIndex((entry) => entry.delivery.event.id === recordedFactId);
    return entries.filter((entry, index) => index > recorded && inWindow(entry, droppedAt, this.#windowMs));
  }
}

/**
 * Answered within the window before the drop, or after it: nothing new is answered before the
 * records are checked, so a fact answered after the drop is one sent again by an unfinished check.
 */
function inWindow(entry: RecentDelivery, droppedAt: number, windowMs: number): boolean {
  return entry.answeredAt >= droppedAt - windowMs;
}
