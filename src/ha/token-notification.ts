import type { EngineStatus } from "../engine/sink.js";
import type { Logger } from "../log/logger.js";

export const TOKEN_NOTIFICATION_ID = "reward_facts_token";

/** Calls a Home Assistant service (REST or websocket, whichever the publisher has). */
export type ServiceCaller = (domain: string, service: string, data: Record<string, unknown>) => Promise<void>;

/**
 * The persistent notification that tells the user the API token was refused: raised when the
 * status turns `token_invalid`, dismissed when it leaves it. Whichever way the states are
 * published, the notification is this one, sent on transitions only.
 */
export class TokenNotification {
  readonly #call: ServiceCaller;
  readonly #logger: Logger;
  /** What Home Assistant shows, as far as known; undefined after a restart of Home Assistant. */
  #shown: boolean | undefined;

  constructor(call: ServiceCaller, logger: Logger) {
    this.#call = call;
    this.#logger = logger;
  }

  /** Home Assistant restarted (persistent notifications do not survive it): send again. */
  reset(): void {
    this.#shown = undefined;
  }

  async follow(status: EngineStatus): Promise<void> {
    const invalid = status.state === "token_invalid";
    // Unknown after a restart: only a raise needs sending, a dismissal of nothing is noise.
    if (invalid === (this.#shown ?? false)) {
      this.#shown = invalid;
      return;
    }
    try {
      if (invalid) {
        await this.#call("persistent_notification", "create", {
          notification_id: TOKEN_NOTIFICATION_ID,
          title: "Reward Facts: API token rejected",
          message:
            "The Household Reward Facts API no longer accepts the token (revoked or unknown). " +
            "Create a new token in the app (Settings → household → API and home automation), " +
            "then put it in the add-on's `api_token` option (or `REWARD_FACTS_API_TOKEN`) and restart.",
        });
      } else {
        await this.#call("persistent_notification", "dismiss", { notification_id: TOKEN_NOTIFICATION_ID });
      }
      this.#shown = invalid;
    } catch (error) {
      this.#logger.warn({ err: error }, "the token notification could not be updated in Home Assistant");
    }
  }
}
