import type { EngineStatus, UnavailableReason } from "../../../engine/sink.js";
import type { StateWriter } from "../../link/state-writer.js";
import type { Texts } from "../../texts/texts.js";
import {
  type ChildIdentity,
  type EntityState,
  type LastFigures,
  unavailableChildEntities,
} from "../entities.js";
import type { EntityNames } from "../entity-names.js";
import type { EntityPublisher, HomeAssistantParts } from "../entity-publisher.js";

/**
 * Entities as states written through Home Assistant's REST API: no broker needed, but they are not
 * registry entities (no unique id, no device, no area), and Home Assistant forgets them when it
 * restarts, so every one is written again then.
 */
export class RestEntities implements EntityPublisher {
  readonly mode = "rest";
  readonly ready = true;
  readonly refusal = undefined;
  readonly #states: StateWriter;
  readonly #names: EntityNames;
  readonly #texts: () => Texts;

  constructor(parts: Pick<HomeAssistantParts, "states" | "names" | "texts">) {
    this.#states = parts.states;
    this.#names = parts.names;
    this.#texts = parts.texts;
  }

  async open(): Promise<void> {}
  async close(): Promise<void> {}
  async whenReady(): Promise<void> {}
  async setChildren(): Promise<void> {}

  /** Home Assistant would keep REST-made states until it restarts: each is deleted. */
  async remove(): Promise<void> {
    await this.#states.removeAll();
  }

  async republish(): Promise<void> {
    await this.#states.republishAll();
  }

  async publishChild(_child: ChildIdentity, states: readonly EntityState[]): Promise<void> {
    await this.#states.write(states);
  }

  async markUnavailable(
    child: ChildIdentity,
    reason: UnavailableReason,
    lastReadAt: number | undefined,
    last?: LastFigures,
  ) {
    await this.#states.write(
      unavailableChildEntities(this.#names, this.#texts(), child, reason, lastReadAt, last),
    );
  }

  async publishStatus(status: EntityState, _engine: EngineStatus): Promise<void> {
    await this.#states.write([status]);
  }

  /** REST-made states are not registry entities. */
  uniqueIdOf(): undefined {
    return undefined;
  }

  deliverySteps(): unknown[] {
    return [];
  }
}
