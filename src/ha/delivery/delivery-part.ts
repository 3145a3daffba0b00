import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { SinkPart } from "../parts/sink-part.js";
import type { EventDeliverer } from "./event-deliverer.js";

/**
 * The facts' share of the sink's lifecycle: the children's delivery records checked at every
 * connection (Home Assistant may have restarted and lost a helper created just before) and when
 * the children change, the facts answered before a crash of Home Assistant sent again once it
 * runs, what a drop may leave owed noted, the records taken away with everything else.
 */
export class DeliveryPart implements SinkPart {
  readonly name = "delivery records";
  readonly #events: EventDeliverer;
  readonly #logger: Logger;
  readonly #ready: () => boolean;
  #children: readonly ChildIdentity[] = [];

  constructor(events: EventDeliverer, logger: Logger, ready: () => boolean) {
    this.#events = events;
    this.#logger = logger;
    this.#ready = ready;
  }

  async connected(): Promise<void> {
    this.#events.records.reset();
    await this.#events.records.ensure(this.#children).catch((error: unknown) => {
      // Not a reason to hold the states back: each fact asks again before it is sent.
      this.#logger.warn({ err: error }, "the delivery records could not be checked in Home Assistant");
    });
  }

  async running(): Promise<void> {
    await this.#events.redeliverAfterCrash().catch((error: unknown) => {
      // Kept for the next connection: the link dropped again, or the record could not be read.
      this.#logger.warn(
        { err: error },
        "the facts answered before Home Assistant restarted could not be checked",
      );
    });
  }

  /** The household's language changed: the records are named in it (those a person named stay). */
  async language(): Promise<void> {
    if (!this.#ready()) return;
    this.#events.records.reset();
    await this.#events.records.ensure(this.#children).catch((error: unknown) => {
      this.#logger.warn({ err: error }, "the delivery records could not be checked in Home Assistant");
    });
  }

  /** Every drop, a clean stop of Home Assistant too: facts answered just before may be owed. */
  disconnected(): void {
    this.#events.dropped();
  }

  async children(children: readonly ChildIdentity[]): Promise<void> {
    this.#children = children;
    if (this.#ready()) await this.#events.records.ensure(children);
  }

  async remove(): Promise<void> {
    await this.#events.records.removeAll().catch((error: unknown) => {
      this.#logger.warn({ err: error }, "the delivery records could not be removed from Home Assistant");
    });
  }
}
