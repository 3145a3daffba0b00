import type { Logger } from "../../../log/logger.js";

/**
 * How long facts wait for Home Assistant's birth message after its last will, at most. A Home
 * Assistant whose birth message is turned off (its will left on) never says `online` again: past
 * this, facts go on, and the log says why they had waited.
 */
export const PRESENCE_WAIT_AT_MOST_MS = 10 * 60_000;

/** Why facts wait while Home Assistant's MQTT client is away: said by the deliverer and the log. */
export const AWAY_FROM_BROKER =
  "Home Assistant's MQTT client left the broker (its last will): facts wait until it announces itself again";

/**
 * Whether Home Assistant's own MQTT client is on the broker, as its last will (`offline`) and birth
 * message (`online`) on `homeassistant/status` tell. A fact delivered while it is away fails and
 * goes again (the script's publish is refused). But a fact sent just as it comes back could fire
 * on the bus while the publish to the event entity is lost: Home Assistant is connected again
 * before it has subscribed again (by half a second in 2026.11, whose subscriptions are debounced).
 * Its birth message comes only after its subscriptions (client.py,
 * `_async_resubscribe_and_publish_birth_message`), so facts wait for it. Before any word (a bridge
 * that just started), Home Assistant is taken as present.
 */
export class HomeAssistantPresence {
  readonly #logger: Logger;
  readonly #waitAtMostMs: number;
  #awaySince: number | undefined;
  #gaveUpLogged = false;

  constructor(logger: Logger, waitAtMostMs = PRESENCE_WAIT_AT_MOST_MS) {
    this.#logger = logger;
    this.#waitAtMostMs = waitAtMostMs;
  }

  /** A message on `homeassistant/status`. */
  said(payload: string): void {
    if (payload === "offline" && this.#awaySince === undefined) {
      this.#awaySince = Date.now();
      this.#gaveUpLogged = false;
      this.#logger.info(AWAY_FROM_BROKER);
    } else if (payload === "online" && this.#awaySince !== undefined) {
      this.#awaySince = undefined;
      this.#logger.info("Home Assistant's MQTT client is back on the broker: facts go on");
    }
  }

  /** Facts must wait now: Home Assistant said `offline` and not yet `online` (for a while at most). */
  get away(): boolean {
    if (this.#awaySince === undefined) return false;
    if (Date.now() - this.#awaySince < this.#waitAtMostMs) return true;
    if (!this.#gaveUpLogged) {
      this.#gaveUpLogged = true;
      this.#logger.warn(
        `Home Assistant's MQTT client has not announced itself for ${Math.round(this.#waitAtMostMs / 60_000)} minutes since its last will (is its birth message turned off?): facts go on without waiting for it`,
      );
    }
    return false;
  }
}
