import type { Today } from "../../src/api/schemas.js";
import { type Fact, isDerived } from "../../src/engine/derived-facts.js";
import {
  type ChildRef,
  type DeliveryOutcome,
  type DeliveryRecordReading,
  type EngineStatus,
  type FactDelivery,
  NotDeliveredError,
  type Sink,
  type UnavailableReason,
} from "../../src/engine/sink.js";

/**
 * A sink that keeps everything the engine hands it, for assertions. Not a stand-in for HA: its
 * "record" is the list of facts it took, which resolves a fact in doubt as HA's record would.
 */
export class RecordingSink implements Sink {
  readonly events: Array<{ childId: string; event: Fact; at: number; delivery: FactDelivery }> = [];
  readonly todays: Array<{ childId: string; today: Today; at: number }> = [];
  readonly statuses: EngineStatus[] = [];
  readonly unavailable: Array<{ childId: string; reason: UnavailableReason; at: number }> = [];
  children: readonly ChildRef[] = [];
  /**
   * How it answers for its record: `kept`, the last fact it took per child and when (as Home
   * Assistant's delivery record would); or as a destination that keeps none, or cannot read it.
   */
  recordMode: "kept" | "none" | "unknown" = "kept";
  /** When each child's record was made: when the sink first heard of the child, as Home Assistant's is. */
  readonly #recordMade = new Map<string, number>();
  #ready = true;
  #waiters: Array<() => void> = [];

  async open(): Promise<void> {}
  async close(): Promise<void> {}
  timeZone(): undefined {
    return undefined;
  }

  get ready(): boolean {
    return this.#ready;
  }

  /** While not ready, the engine must hold and deliver nothing. */
  setReady(ready: boolean): void {
    this.#ready = ready;
    if (ready) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  whenReady(signal: AbortSignal): Promise<void> {
    if (this.#ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.#waiters.push(resolve);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.children = children;
    for (const child of children)
      if (!this.#recordMade.has(child.id)) this.#recordMade.set(child.id, Date.now());
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    this.todays.push({ childId: child.id, today, at: Date.now() });
  }

  /** While set, it takes no fact (as a destination refusing them would), ready as it stays. */
  refusingFacts = false;

  async publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    if (!this.#ready || this.refusingFacts) throw new NotDeliveredError("sink not ready");
    if (delivery.inDoubt && this.events.some((e) => e.event.id === delivery.event.id)) {
      return { alreadyDelivered: true };
    }
    this.events.push({ childId: child.id, event: delivery.event, at: Date.now(), delivery });
    return {};
  }

  async readDeliveryRecord(child: ChildRef): Promise<DeliveryRecordReading> {
    if (!this.#ready) throw new NotDeliveredError("sink not ready");
    if (this.recordMode !== "kept") return { kind: this.recordMode };
    // Its record of the child's journal (derived facts have a record of their own).
    const last = this.events.filter((e) => e.childId === child.id && !isDerived(e.event)).at(-1);
    if (last) return { kind: "names", factId: last.event.id, updatedAt: last.at };
    const made = this.#recordMade.get(child.id);
    return made === undefined ? { kind: "empty" } : { kind: "empty", updatedAt: made };
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.statuses.push(status);
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    this.unavailable.push({ childId: child.id, reason, at: Date.now() });
  }

  /** The child's journal facts taken, in order. */
  eventIdsOf(childId: string): string[] {
    return this.events.filter((e) => e.childId === childId && !isDerived(e.event)).map((e) => e.event.id);
  }

  /** The child's derived facts taken, in order. */
  derivedOf(childId: string): Fact[] {
    return this.events.filter((e) => e.childId === childId && isDerived(e.event)).map((e) => e.event);
  }

  lastStatus(): EngineStatus | undefined {
    return this.statuses.at(-1);
  }
}
