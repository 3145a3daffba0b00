import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { ChildButton, EntityNames } from "../entities/entity-names.js";
import type { HomeAssistantLink } from "../link/connection.js";
import { testFactData } from "./test-fact.js";

export interface ChildButtonsOptions {
  link: HomeAssistantLink;
  names: EntityNames;
  logger: Logger;
  /** The engine's Read now (the app wires it); a press is only logged without. */
  readNow?: ((childId: string) => void) | undefined;
}

/**
 * What a press of a child's button does (MQTT mode): Read now asks the engine to read her day and
 * journal next; the test fact is one bus event, fired straight through the link, outside the
 * delivery of facts (no delivery record, no cursor, no memory of it): fired once, at the press.
 */
export class ChildButtons {
  readonly #o: ChildButtonsOptions;

  constructor(options: ChildButtonsOptions) {
    this.#o = options;
  }

  pressed(child: ChildIdentity, button: ChildButton): void {
    if (button === "read_now") {
      if (this.#o.readNow) this.#o.readNow(child.id);
      else
        this.#o.logger.info({ child: child.firstName }, "Read now was pressed: nothing here reads the API");
      return;
    }
    void this.#fireTestFact(child);
  }

  async #fireTestFact(child: ChildIdentity): Promise<void> {
    const { link, names, logger } = this.#o;
    const data = testFactData(child, Date.now(), link.timeZone);
    try {
      await link.command({ type: "fire_event", event_type: names.eventType, event_data: data });
      logger.info({ child: child.firstName, event: data.event_id }, "sent a test fact (test: true)");
    } catch (error) {
      // Never sent again: a test fact is not owed (pressed again, it goes).
      logger.warn(
        { child: child.firstName, err: error },
        "the test fact could not be sent to Home Assistant",
      );
    }
  }
}
