import type { ApiEvent, Today } from "../api/schemas.js";
import type { ChildRef, EngineStatus, Sink } from "./sink.js";

/**
 * Several sinks as one (Home Assistant and the demo's terminal). The first is the one that
 * acknowledges events: it is sent to first, synchronously, as Sink.publishEvent requires.
 */
export class FanOutSink implements Sink {
  readonly #sinks: readonly Sink[];

  constructor(sinks: readonly Sink[]) {
    this.#sinks = sinks;
  }

  async whenReady(signal: AbortSignal): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.whenReady(signal)));
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.setChildren(children)));
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.publishToday(child, today)));
  }

  publishEvent(child: ChildRef, event: ApiEvent): Promise<void> {
    const [first, ...others] = this.#sinks;
    if (!first) return Promise.resolve();
    return first.publishEvent(child, event).then(async () => {
      await Promise.allSettled(others.map((sink) => sink.publishEvent(child, event)));
    });
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.publishStatus(status)));
  }

  async markUnavailable(child: ChildRef, reason: string): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.markUnavailable(child, reason)));
  }
}
