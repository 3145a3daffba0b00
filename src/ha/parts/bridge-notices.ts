import type { BridgeState, EngineStatus } from "../../engine/sink.js";
import type { Logger } from "../../log/logger.js";
import {
  brokerNotice,
  type NoticeLanguage,
  type PersistentNotice,
  type ServiceCaller,
  tokenNotice,
} from "../link/notifications.js";
import type { SinkPart } from "./sink-part.js";

/**
 * The bridge's two notifications (a refused API token, a refused MQTT login), kept as their causes
 * are: told at every (re)connection what Home Assistant must show, since it is not known what it
 * shows then (it may have restarted, or an earlier run of the bridge raised one and died, or was
 * restarted once its cause was fixed: each is sent once on this connection, a dismissal too); then
 * at every status; reworded when the household's language changes.
 */
export class BridgeNotices implements SinkPart {
  readonly name = "notifications";
  readonly #token: PersistentNotice;
  readonly #broker: PersistentNotice;
  /** Connected, and told what this connection must show: not while the link is down. */
  #live = false;
  #state: BridgeState | undefined;

  constructor(call: ServiceCaller, logger: Logger, language: NoticeLanguage) {
    this.#token = tokenNotice(call, logger, language);
    this.#broker = brokerNotice(call, logger, language);
  }

  /** A new connection: what Home Assistant shows is unknown, both are sent once again. */
  async connected(): Promise<void> {
    this.#token.reset();
    this.#broker.reset();
    this.#live = true;
  }

  disconnected(): void {
    this.#live = false;
  }

  /** The broker refuses the bridge: its notice says what to fix. */
  async refused(): Promise<void> {
    await this.#showBroker(true);
  }

  /** The broker accepted the bridge (or there is none): its notice has no cause left. */
  async republished(): Promise<void> {
    await this.#showBroker(false);
  }

  /** The bridge's state as the status says it: the token's notice follows it. */
  async status(status: EngineStatus): Promise<void> {
    this.#state = status.state;
    if (this.#live) await this.#showToken();
  }

  /** The household's language changed: a notice shown is written again in it. */
  async language(): Promise<void> {
    await this.#token.reword();
    await this.#broker.reword();
  }

  async #showBroker(refused: boolean): Promise<void> {
    await this.#broker.show(refused);
    await this.#showToken();
  }

  /** Before any status, the first status does it. */
  async #showToken(): Promise<void> {
    if (this.#state) await this.#token.show(this.#state === "token_invalid");
  }
}
