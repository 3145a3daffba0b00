import type { Logger } from "../log/logger.js";

export const TOKEN_NOTIFICATION_ID = "reward_facts_token";
export const BROKER_NOTIFICATION_ID = "reward_facts_mqtt";

/** Calls a Home Assistant service (REST or websocket, whichever the publisher has). */
export type ServiceCaller = (domain: string, service: string, data: Record<string, unknown>) => Promise<void>;

interface NoticeText {
  id: string;
  title: string;
  message: string;
}

/**
 * A persistent notification the bridge raises while something needs the user, and dismisses once
 * it does not, whichever run of the bridge raised it: what Home Assistant shows is unknown at
 * first and after every (re)connection (it may have restarted, which drops them all, or an earlier
 * run may have raised it and died), so the first update after that is sent even if it is a
 * dismissal (dismissing an absent notification is harmless in Home Assistant); later ones only on
 * transitions. Updates go one at a time, in the order asked.
 */
export class PersistentNotice {
  readonly #text: NoticeText;
  readonly #call: ServiceCaller;
  readonly #logger: Logger;
  /** What Home Assistant shows, as far as known; undefined until an update succeeds. */
  #shown: boolean | undefined;
  /** Bumped by reset(): an update sent before it does not make what is shown known. */
  #epoch = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(text: NoticeText, call: ServiceCaller, logger: Logger) {
    this.#text = text;
    this.#call = call;
    this.#logger = logger;
  }

  /** What Home Assistant shows is no longer known (a new connection): the next update is sent. */
  reset(): void {
    this.#shown = undefined;
    this.#epoch++;
  }

  show(wanted: boolean): Promise<void> {
    const update = this.#queue.then(() => this.#update(wanted));
    this.#queue = update;
    return update;
  }

  async #update(wanted: boolean): Promise<void> {
    if (wanted === this.#shown) return;
    const epoch = this.#epoch;
    try {
      if (wanted) {
        const { id, title, message } = this.#text;
        await this.#call("persistent_notification", "create", { notification_id: id, title, message });
      } else {
        await this.#call("persistent_notification", "dismiss", { notification_id: this.#text.id });
      }
      if (epoch === this.#epoch) this.#shown = wanted;
    } catch (error) {
      this.#logger.warn(
        { err: error, notification: this.#text.id },
        "a notification could not be updated in Home Assistant",
      );
    }
  }
}

/** The API token was refused: shown while the status is `token_invalid`. */
export function tokenNotice(call: ServiceCaller, logger: Logger): PersistentNotice {
  return new PersistentNotice(
    {
      id: TOKEN_NOTIFICATION_ID,
      title: "Reward Facts: API token rejected",
      message:
        "The Household Reward Facts API no longer accepts the token (revoked or unknown). " +
        "Create a new token in the app (Settings → household → API and home automation), " +
        "then put it in the add-on's `api_token` option (or `REWARD_FACTS_API_TOKEN`) and restart.",
    },
    call,
    logger,
  );
}

/** The MQTT broker refused the bridge's credentials. */
export function brokerNotice(call: ServiceCaller, logger: Logger): PersistentNotice {
  return new PersistentNotice(
    {
      id: BROKER_NOTIFICATION_ID,
      title: "Reward Facts: the MQTT broker refused the bridge",
      message:
        "The MQTT broker refused the bridge's user and password, so no entity can be published. " +
        "Standalone: check MQTT_USERNAME and MQTT_PASSWORD (a user of the broker), then restart the bridge. " +
        "In the add-on: restart it (the Supervisor gives it a user of the Mosquitto broker add-on), " +
        "or set its `publish` option to `rest`.",
    },
    call,
    logger,
  );
}
