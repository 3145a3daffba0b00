import type { ChildRef, FactDelivery } from "../../engine/sink.js";
import { notedAt, type RecentDelivery, type RecentDeliveryHistory } from "../../engine/storage.js";
import { type DeliveryStream, streamKey, streamOf } from "./delivery-stream.js";

/*
 * Home Assistant answers a delivery once it has fired the event; what the event sets off runs
 * after (automations, queued behind one another; each websocket subscriber's copy). A Home
 * Assistant killed a moment later takes those with it, and comes back with the states of its last
 * save, up to 15 minutes old: the child's delivery record then sits behind the facts it answered.
 * Which of those set anything off cannot be known. Rather than lose them, the facts it answered
 * shortly before the link dropped, after the one its record still names, go again, marked
 * `redelivered` so that an automation which must not repeat itself can skip them.
 *
 * The facts sent count too, answered or not: the record may name the last one sent, whose answer
 * the drop took (a stop that ends the link while the fact's script has just run). The record is
 * then not behind at all, and nothing answered before it is owed.
 *
 * All of it per child and stream (delivery-stream.ts): each stream has its own record, which names
 * the last fact of that stream only.
 *
 * Kept in the data directory too (RecentDeliveryHistory, a port of engine/storage.ts that src/store
 * implements): a bridge that died together with Home Assistant (both SIGKILLed, the host's OOM
 * killer) starts with them in doubt since its last note, and the same check of the records then
 * tells what Home Assistant lost. A bridge restarted alone finds each record naming its last fact
 * sent, and sends nothing again.
 *
 * Once the window has passed, a fact can no longer be owed by any drop: a sweep a window after the
 * answers forgets it (the last fact of each child's stream stays), here and in the history. Without it, a
 * catch-up's facts (up to 1,000 a child) stayed in memory until the child's next fact, hours later
 * on a quiet evening: 0.56 KiB each, both copies (900 sample facts, heap used after a full GC).
 */

/** How long before the link dropped an answered fact may still have set nothing off. */
export const REDELIVERY_WINDOW_MS = 30_000;
/** How long after the window a sweep comes: a fact noted just as the window ends is out by then. */
const SWEEP_SLACK_MS = 1_000;
/** At most this many facts kept per child and stream (a catch-up can send hundreds a second). */
const PER_CHILD_LIMIT = 1_000;

/** A child's record of one stream, whose facts may be owed after a drop. */
export interface RecordInDoubt {
  child: ChildRef;
  stream: DeliveryStream;
}

/** The facts sent to Home Assistant lately, per child and stream, in the order they were first sent. */
export class RecentDeliveries {
  readonly #windowMs: number;
  readonly #history: RecentDeliveryHistory | undefined;
  /** By child and stream (streamKey). */
  readonly #byRecord = new Map<string, RecentDelivery[]>();
  /** The earliest drop of the link not yet followed by a check of the records. */
  #droppedAt: number | undefined;
  /** The sweep to come, while facts beyond each child's last are kept. */
  #sweep: NodeJS.Timeout | undefined;

  constructor(windowMs = REDELIVERY_WINDOW_MS, history?: RecentDeliveryHistory) {
    this.#windowMs = windowMs;
    this.#history = history;
    let lastNote = Number.NEGATIVE_INFINITY;
    for (const entry of history?.load() ?? []) {
      const key = keyOf(entry);
      const entries = this.#byRecord.get(key) ?? [];
      entries.push({ ...entry });
      this.#byRecord.set(key, entries);
      lastNote = Math.max(lastNote, notedAt(entry));
    }
    // The previous run's link ended with that run, at its last note or later. Taken as the drop,
    // the last note's window holds every fact the real drop's could: the check may send again a
    // fact that had run long enough, marked as such, but never misses one that had not.
    if (Number.isFinite(lastNote)) this.#droppedAt = lastNote;
  }

  /** How many facts are kept, all children and streams together. */
  get size(): number {
    let total = 0;
    for (const entries of this.#byRecord.values()) total += entries.length;
    return total;
  }

  /** `delivery` is about to be sent (again, when it was a redelivery: it keeps its place). */
  sent(child: ChildRef, delivery: FactDelivery, at = Date.now()): void {
    const entry = this.#entry(child, delivery, at);
    entry.sentAt = at;
    this.#history?.sent(entry);
  }

  /** Home Assistant answered `delivery`. */
  answered(child: ChildRef, delivery: FactDelivery, at = Date.now()): void {
    const entry = this.#entry(child, delivery, at);
    entry.answeredAt = at;
    this.#history?.answered(child.id, delivery.event.id, at);
    this.#sweepLater();
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
    this.#sweepLater();
  }

  /** The children's records with facts answered within the window before the unsettled drop. */
  recordsInDoubt(): RecordInDoubt[] {
    const droppedAt = this.#droppedAt;
    if (droppedAt === undefined) return [];
    return [...this.#byRecord.values()]
      .filter((entries) => entries.some((entry) => owedIfBehind(entry, droppedAt, this.#windowMs)))
      .flatMap((entries) =>
        entries.slice(0, 1).map((entry) => ({ child: entry.child, stream: streamOf(entry.delivery.event) })),
      );
  }

  /**
   * What to send again of a child's `stream` whose record, after the drop, names `recordedFactId`:
   * the facts of the stream answered within the window before the drop that were sent after the
   * recorded one; none when the record names the last fact sent (Home Assistant kept everything: no
   * crash, or a clean stop), all of them when it names none of the facts kept (a record older than
   * the window).
   */
  owed(childId: string, stream: DeliveryStream, recordedFactId: string | undefined): RecentDelivery[] {
    const droppedAt = this.#droppedAt;
    const entries = this.#byRecord.get(streamKey(childId, stream)) ?? [];
    if (droppedAt === undefined || entries.length === 0) return [];
    const recorded = entries.findIndex((entry) => entry.delivery.event.id === recordedFactId);
    return entries.filter(
      (entry, index) => index > recorded && owedIfBehind(entry, droppedAt, this.#windowMs),
    );
  }

  /**
   * Forgets the facts no drop from now on can owe: noted before the window, other than the last of
   * each child's stream. Nothing goes while a drop is unsettled (what it may owe stays until it is
   * settled).
   */
  forgetAged(at = Date.now()): void {
    if (this.#droppedAt !== undefined) return;
    const oldest = at - this.#windowMs;
    for (const [key, entries] of this.#byRecord) this.#byRecord.set(key, withinWindow(entries, oldest));
    this.#history?.forget(oldest);
  }

  /** A sweep a window from now (unless one is to come), while more than the last facts are kept. */
  #sweepLater(): void {
    if (this.#sweep || this.size <= this.#byRecord.size) return;
    this.#sweep = setTimeout(() => {
      this.#sweep = undefined;
      this.forgetAged();
      this.#sweepLater();
    }, this.#windowMs + SWEEP_SLACK_MS);
    // Nothing to wait for at exit: the history holds what a next run needs.
    this.#sweep.unref();
  }

  /**
   * The entry for `delivery`, added last to its child's stream if new; entries out of the window
   * are dropped.
   */
  #entry(child: ChildRef, delivery: FactDelivery, at: number): RecentDelivery {
    // While a drop is unsettled, what it may owe stays, however long the check takes.
    const oldest = Math.min(at, this.#droppedAt ?? at) - this.#windowMs;
    const key = streamKey(child.id, streamOf(delivery.event));
    const kept = withinWindow(this.#byRecord.get(key) ?? [], oldest);
    let entry = kept.find((candidate) => candidate.delivery.event.id === delivery.event.id);
    if (!entry) {
      entry = { child, delivery, sentAt: at, answeredAt: undefined };
      kept.push(entry);
    }
    this.#byRecord.set(key, kept.slice(-PER_CHILD_LIMIT));
    return entry;
  }
}

function keyOf(entry: RecentDelivery): string {
  return streamKey(entry.child.id, streamOf(entry.delivery.event));
}

/** The entries noted since `oldest`, and the last one whatever its age: the record may name it. */
function withinWindow(entries: readonly RecentDelivery[], oldest: number): RecentDelivery[] {
  return entries.filter((entry, index) => index === entries.length - 1 || notedAt(entry) >= oldest);
}

/**
 * Answered within the window before the drop, or after it: nothing new is answered before the
 * records are checked, so a fact answered after the drop is one sent again by an unfinished check.
 * A fact never answered is not owed: it is still in doubt for the engine, which sends it again
 * itself, and the record then tells whether it had arrived.
 */
function owedIfBehind(entry: RecentDelivery, droppedAt: number, windowMs: number): boolean {
  return entry.answeredAt !== undefined && entry.answeredAt >= droppedAt - windowMs;
}
