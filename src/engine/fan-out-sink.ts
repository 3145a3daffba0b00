import type { Today } from "../api/schemas.js";
import type {
  ChildRef,
  DeliveryOutcome,
  DeliveryRecordReading,
  EngineStatus,
  FactDelivery,
  Sink,
  UnavailableReason,
} from "./sink.js";

/**
 * Several sinks as one (Home Assistant and the demo's terminal). The first is the one that
 * acknowledges events and keeps the delivery record; the others are shown each fact after it.
 */
export class FanOutSink implements Sink {
  readonly #sinks: readonly Sink[];

  constructor(sinks: readonly Sink[]) {
    this.#sinks = sinks;
  }

  /** Opens every sink; when one refuses, closes those already open and rejects. */
  async open(): Promise<void> {
    const opened: Sink[] = [];
    try {
      for (const sink of this.#sinks) {
        await sink.open();
        opened.push(sink);
      }
    } catch (error) {
      await Promise.allSettled(opened.map((sink) => sink.close()));
      throw error;
    }
  }

  /** Closes every sink, each even when another fails; rejects with the first failure. */
  async close(): Promise<void> {
    const results = await Promise.allSettled(this.#sinks.map((sink) => sink.close()));
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
  }

  timeZone(): string | undefined {
    for (const sink of this.#sinks) {
      const zone = sink.timeZone();
      if (zone) return zone;
    }
    return undefined;
  }

  get ready(): boolean {
    return this.#sinks.every((sink) => sink.ready);
  }

  async whenReady(signal: AbortSignal): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.whenReady(signal)));
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.setChildren(children)));
  }

  async publishToday(child: ChildRef, today: Today, readAt: number): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.publishToday(child, today, readAt)));
  }

  async publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    const [first, ...others] = this.#sinks;
    if (!first) return {};
    const outcome = await first.publishEvent(child, delivery);
    await Promise.allSettled(others.map((sink) => sink.publishEvent(child, delivery)));
    return outcome;
  }

  /** The first sink's record: it is the one that acknowledges facts. */
  async readDeliveryRecord(child: ChildRef): Promise<DeliveryRecordReading> {
    return (await this.#sinks[0]?.readDeliveryRecord?.(child)) ?? { kind: "none" };
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.publishStatus(status)));
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.markUnavailable(child, reason)));
  }
}
