import type { ApiEvent, Today } from "../api/schemas.js";
import {
  type ChildRef,
  type EngineStatus,
  MaybeDeliveredError,
  NotDeliveredError,
  type Sink,
} from "../engine/sink.js";
import type { Logger } from "../log/logger.js";
import { HaConnection } from "./connection.js";
import { type ChildIdentity, childEntities, statusEntity, unavailableChildEntities } from "./entities.js";
import { HomeAssistantConnectionError, HomeAssistantNotConnectedError } from "./errors.js";
import { EVENT_TYPE, eventData } from "./event-data.js";
import { slugsFor } from "./slugs.js";
import { StateWriter } from "./state-writer.js";

export interface HaSinkOptions {
  url: string;
  token: string;
  logger: Logger;
  /** Standalone: check the token's user is an administrator. */
  requireAdmin: boolean;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
}

export const TOKEN_NOTIFICATION_ID = "reward_facts_token";
/** Failed writes within this window make the status `ha_degraded`. */
const DEGRADED_WINDOW_MS = 10 * 60_000;

/**
 * Publishes what the engine reads into Home Assistant: states through REST, journal facts as
 * `reward_facts_event` bus events through the websocket, whose result is the acknowledgement.
 */
export class HaSink implements Sink {
  readonly #logger: Logger;
  readonly #connection: HaConnection;
  readonly #states: StateWriter;
  #slugs = new Map<string, string>();
  #status: EngineStatus | undefined;
  #notified = false;
  #lastWriteFailure = 0;

  constructor(options: HaSinkOptions) {
    this.#logger = options.logger;
    this.#states = new StateWriter({ url: options.url, token: options.token, logger: options.logger });
    this.#connection = new HaConnection({
      url: options.url,
      token: options.token,
      logger: options.logger,
      requireAdmin: options.requireAdmin,
      heartbeatMs: options.heartbeatMs ?? 30_000,
      pongTimeoutMs: options.pongTimeoutMs ?? 10_000,
      onRunning: () => this.#republish(),
    });
  }

  /** Connects to Home Assistant; throws when it refuses the token or the user is not an admin. */
  async open(): Promise<void> {
    await this.#connection.open();
  }

  /** Home Assistant's time zone, once known. */
  get timeZone(): string | undefined {
    return this.#connection.timeZone;
  }

  /** Connected to a RUNNING Home Assistant, every state republished. */
  get ready(): boolean {
    return this.#connection.ready;
  }

  whenReady(signal: AbortSignal): Promise<void> {
    return this.#connection.whenReady(signal);
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.#slugs = slugsFor(children);
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    await this.#write(childEntities(this.#identity(child), today));
  }

  publishEvent(child: ChildRef, event: ApiEvent): Promise<void> {
    if (!this.#connection.ready) return Promise.reject(new NotDeliveredError("Home Assistant is not ready"));
    // The message leaves within this call (HaConnection.command): nothing may be awaited before.
    const sent = this.#connection.command({
      type: "fire_event",
      event_type: EVENT_TYPE,
      event_data: eventData(this.#identity(child), event),
    });
    return sent.then(
      () => undefined,
      (error: unknown) => {
        // Lost after leaving: Home Assistant may have fired it. Refused or never sent: it did not.
        const lostInFlight =
          error instanceof HomeAssistantConnectionError && !(error instanceof HomeAssistantNotConnectedError);
        if (lostInFlight) {
          throw new MaybeDeliveredError(
            "the connection dropped before Home Assistant acknowledged the event",
          );
        }
        if (!(error instanceof HomeAssistantConnectionError)) this.#lastWriteFailure = Date.now();
        throw new NotDeliveredError(`Home Assistant did not take the event: ${(error as Error).message}`);
      },
    );
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.#status = status;
    const degraded = Date.now() - this.#lastWriteFailure < DEGRADED_WINDOW_MS;
    await this.#write([statusEntity(status, degraded)]);
    await this.#followTokenNotification(status);
  }

  async markUnavailable(child: ChildRef, reason: string): Promise<void> {
    await this.#write(unavailableChildEntities(this.#identity(child), reason));
  }

  async close(): Promise<void> {
    this.#connection.close();
    await this.#states.close();
  }

  #identity(child: ChildRef): ChildIdentity {
    const slug = this.#slugs.get(child.id) ?? slugsFor([child]).get(child.id) ?? "child";
    return { id: child.id, firstName: child.firstName, slug };
  }

  async #write(states: Parameters<StateWriter["write"]>[0]): Promise<void> {
    try {
      await this.#states.write(states);
    } catch (error) {
      this.#lastWriteFailure = Date.now();
      this.#logger.warn({ err: error }, "a state could not be written to Home Assistant");
    }
  }

  async #followTokenNotification(status: EngineStatus): Promise<void> {
    const invalid = status.state === "token_invalid";
    if (invalid === this.#notified) return;
    try {
      if (invalid) {
        await this.#states.callService("persistent_notification", "create", {
          notification_id: TOKEN_NOTIFICATION_ID,
          title: "Reward Facts: API token rejected",
          message:
            "The Household Reward Facts API no longer accepts the token (revoked or unknown). " +
            "Create a new token in the app (Settings → household → API and home automation), " +
            "then put it in the add-on's `api_token` option (or `REWARD_FACTS_API_TOKEN`) and restart.",
        });
      } else {
        await this.#states.callService("persistent_notification", "dismiss", {
          notification_id: TOKEN_NOTIFICATION_ID,
        });
      }
      this.#notified = invalid;
    } catch (error) {
      this.#logger.warn({ err: error }, "the token notification could not be updated in Home Assistant");
    }
  }

  /** After Home Assistant (re)started: every state again, then the status. */
  async #republish(): Promise<void> {
    const count = await this.#states.republishAll();
    if (count > 0) this.#logger.info({ states: count }, "republished every state to Home Assistant");
    this.#notified = false;
    if (this.#status) await this.#followTokenNotification(this.#status);
  }
}
