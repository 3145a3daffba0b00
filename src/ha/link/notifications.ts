import type { Logger } from "../../log/logger.js";
import { fill, type Texts } from "../texts/texts.js";

export const TOKEN_NOTIFICATION_ID = "reward_facts_token";
export const BROKER_NOTIFICATION_ID = "reward_facts_mqtt";
/** Another bridge already publishes to this Home Assistant (household-lease.ts). */
export const ANOTHER_BRIDGE_NOTIFICATION_ID = "reward_facts_another_bridge";
/** Every notification the bridge may raise: what its removal dismisses. */
export const BRIDGE_NOTIFICATION_IDS = [
  TOKEN_NOTIFICATION_ID,
  BROKER_NOTIFICATION_ID,
  ANOTHER_BRIDGE_NOTIFICATION_ID,
] as const;

/** Calls a Home Assistant service (REST or websocket, whichever the publisher has). */
export type ServiceCaller = (domain: string, service: string, data: Record<string, unknown>) => Promise<void>;

/** What a notice says, worded when it is raised: in the household's language, with the moment it began. */
export interface NoticeWording {
  id: string;
  words(since: number): { title: string; message: string };
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
  readonly #text: NoticeWording;
  readonly #call: ServiceCaller;
  readonly #logger: Logger;
  /** What Home Assistant shows, as far as known; undefined until an update succeeds. */
  #shown: boolean | undefined;
  /** Bumped by reset(): an update sent before it does not make what is shown known. */
  #epoch = 0;
  #queue: Promise<void> = Promise.resolve();

  /** When the cause began, as far as this run knows: the notice says since when. */
  #since: number | undefined;

  constructor(text: NoticeWording, call: ServiceCaller, logger: Logger) {
    this.#text = text;
    this.#call = call;
    this.#logger = logger;
  }

  /** What Home Assistant shows is no longer known (a new connection): the next update is sent. */
  reset(): void {
    this.#shown = undefined;
    this.#epoch++;
  }

  /** The household's language changed: a notice shown is written again in it. */
  reword(): Promise<void> {
    const update = this.#queue.then(async () => {
      if (this.#shown !== true) return;
      this.#shown = undefined;
      await this.#update(true);
    });
    this.#queue = update;
    return update;
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
        this.#since ??= Date.now();
        const { title, message } = this.#text.words(this.#since);
        await this.#call("persistent_notification", "create", {
          notification_id: this.#text.id,
          title,
          message,
        });
      } else {
        await this.#call("persistent_notification", "dismiss", { notification_id: this.#text.id });
        this.#since = undefined;
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

/** The texts and how to write a moment, as they are now (the household's language may change). */
export interface NoticeLanguage {
  texts: () => Texts;
  moment: (at: number) => string;
}

/** The API token was refused: shown while the status is `token_invalid`. */
export function tokenNotice(call: ServiceCaller, logger: Logger, language: NoticeLanguage): PersistentNotice {
  return new PersistentNotice(
    {
      id: TOKEN_NOTIFICATION_ID,
      words: (since) => {
        const { token_title, token_message } = language.texts().notifications;
        return { title: token_title, message: fill(token_message, { since: language.moment(since) }) };
      },
    },
    call,
    logger,
  );
}

/** The MQTT broker refused the bridge's credentials. */
export function brokerNotice(
  call: ServiceCaller,
  logger: Logger,
  language: NoticeLanguage,
): PersistentNotice {
  return new PersistentNotice(
    {
      id: BROKER_NOTIFICATION_ID,
      words: (since) => {
        const { broker_title, broker_message } = language.texts().notifications;
        return { title: broker_title, message: fill(broker_message, { since: language.moment(since) }) };
      },
    },
    call,
    logger,
  );
}
