import { connect, type IClientOptions, type MqttClient } from "mqtt";
import type { Logger } from "../../../log/logger.js";
import { ReadyGate } from "../../link/ready-gate.js";
import { HomeAssistantPresence } from "./home-assistant-presence.js";
import type { StateMessage } from "./state-messages.js";
import { BRIDGE_AVAILABILITY, HOME_ASSISTANT_STATUS } from "./topics.js";

export interface BrokerAddress {
  /** `mqtt://host:port` or `mqtts://host:port`. */
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

export interface MqttLinkOptions {
  broker: BrokerAddress;
  logger: Logger;
  /** Home Assistant announced itself (`homeassistant/status` `online`): everything again. */
  onHomeAssistantOnline: () => void;
  /** More topic filters to follow (retained messages included), and where their messages go. */
  subscriptions?: readonly string[];
  onMessage?: (topic: string, payload: Buffer) => void;
  /** Seconds; the broker publishes the last will this long (×1.5) after the bridge went silent. */
  keepaliveSeconds?: number;
  /**
   * Where the broker's address and credentials come from again after a refusal (the add-on: the
   * Supervisor, which gives a reinstalled Mosquitto's new user); without it a refusal is final.
   */
  askBrokerAgain?: () => Promise<BrokerAddress | null>;
  /** How long after a refusal it is asked again (and again, while refused). */
  refusedRetryMs?: number;
  /** The broker took the bridge again after a refusal: what could not be published, now. */
  onRefusalEnded?: () => void;
  /** How long facts wait for Home Assistant's birth after its last will, at most (home-assistant-presence.ts). */
  presenceWaitAtMostMs?: number;
}

/**
 * After a refusal, the broker's source (the Supervisor, on the same host) is asked again this
 * often; the broker itself is tried only with credentials that changed, or every
 * SAME_CREDENTIALS_EVERY asks (a broker that refused while it started: the Mosquitto add-on does):
 * retrying refused credentials fast only fills the broker's log.
 */
export const REFUSED_RETRY_MS = 15_000;
const SAME_CREDENTIALS_EVERY = 4;

/** The broker refused the credentials: a person must fix them. */
export class BrokerRefusedError extends Error {
  override name = "BrokerRefusedError";
}

/** Not connected to the broker: the message did not leave. */
export class BrokerUnavailableError extends Error {
  override name = "BrokerUnavailableError";
}

/**
 * Where the broker listens, as MQTT.js's options. Given the URL itself, MQTT.js reads it with
 * url.parse(), which Node 24 reports as deprecated on standard error at every start (DEP0169):
 * a warning in the add-on's log that nothing the user does can mend. Read here with WHATWG's URL.
 */
export function brokerEndpoint(url: string): Pick<IClientOptions, "protocol" | "host" | "port"> {
  const address = new URL(url);
  return {
    protocol: address.protocol === "mqtts:" ? "mqtts" : "mqtt",
    // An IPv6 address without its brackets, as a socket takes it.
    host: address.hostname.replace(/^\[(.*)\]$/, "$1"),
    // Without one, MQTT.js takes the protocol's own (1883, or 8883 over TLS).
    ...(address.port ? { port: Number(address.port) } : {}),
  };
}

// CONNACK codes of a refused login: MQTT 3.1.1 (4, 5) and MQTT 5 (134, 135).
const REFUSED_CODES = new Set([4, 5, 134, 135]);

/**
 * The bridge's connection to the MQTT broker (MQTT.js reconnects by itself). Its last will marks
 * the bridge `offline`, so every entity of a bridge that dies goes unavailable within the
 * keepalive; `online` is published at each connection. Logs when the broker goes away and once
 * when it is back, and never the password.
 */
export class MqttLink {
  readonly #o: MqttLinkOptions;
  #client: MqttClient | undefined;
  #everConnected = false;
  /** Connected and the birth message out: what publishing waits for. */
  readonly #connected = new ReadyGate();
  #lostLogged = false;
  #refused: BrokerRefusedError | undefined;
  /** The broker as last given (the Supervisor may give another after a refusal). */
  #broker: BrokerAddress;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #asksSinceTry = 0;
  #closed = false;
  readonly #homeAssistant: HomeAssistantPresence;
  /**
   * Publishes waiting for the broker's receipt, per client, and how each fails. MQTT.js keeps such
   * a message to send again after a reconnection, but drops neither it nor its callback when the
   * client is ended for good: a client the link ends fails them (#retire), or they would wait forever.
   */
  readonly #inFlight = new Map<MqttClient, Set<(error: Error) => void>>();

  constructor(options: MqttLinkOptions) {
    this.#o = options;
    this.#broker = options.broker;
    this.#homeAssistant = new HomeAssistantPresence(options.logger, options.presenceWaitAtMostMs);
  }

  /** Home Assistant's own MQTT client said it left the broker and has not said it is back. */
  get homeAssistantAway(): boolean {
    return this.#homeAssistant.away;
  }

  get connected(): boolean {
    return this.#connected.isOpen && this.#client?.connected === true;
  }

  /**
   * Set while the broker refuses the credentials. Retried only with credentials asked again
   * (askBrokerAgain); without, until restart: retrying refused ones only fills the broker's log.
   */
  get refused(): BrokerRefusedError | undefined {
    return this.#refused;
  }

  /**
   * Connects; BrokerRefusedError on refused credentials; a broker not there yet is retried until
   * it answers, the link is closed, or `signal` aborts (a stop during start-up):
   * BrokerUnavailableError then.
   */
  async open(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const client = this.#start(this.#broker);
    await new Promise<void>((resolve, reject) => {
      const settle = () => {
        client.off("connect", onConnect);
        client.off("error", onError);
        client.off("end", onEnd);
        signal?.removeEventListener("abort", onStop);
      };
      const onConnect = () => {
        settle();
        resolve();
      };
      // Closed before the broker answered: MQTT.js stops retrying, and nothing will connect.
      const onEnd = () => {
        settle();
        reject(new BrokerUnavailableError("closed before the MQTT broker could be reached"));
      };
      const onStop = () => client.end(true);
      const onError = (error: Error) => {
        const classified = this.#classify(error);
        if (!(classified instanceof BrokerRefusedError)) return;
        settle();
        // The caller says it (MqttEntities): not logged here too.
        this.#refuse(client, classified, false);
        reject(classified);
      };
      client.on("connect", onConnect);
      client.on("error", onError);
      client.on("end", onEnd);
      signal?.addEventListener("abort", onStop, { once: true });
    });
    client.on("error", (error) => this.#onError(client, error));
  }

  /** A client of MQTT.js on `broker`, with what every connection of the link does. */
  #start(broker: BrokerAddress): MqttClient {
    const options: IClientOptions = {
      username: broker.username,
      password: broker.password,
      clientId: `reward_facts_bridge_${Math.random().toString(16).slice(2, 10)}`,
      keepalive: this.#o.keepaliveSeconds ?? 30,
      reconnectPeriod: 5_000,
      connectTimeout: 10_000,
      clean: true,
      // MQTT.js otherwise builds, at the first packet, a table of all 65,536 packet ids as ready
      // buffers: 6.5 MiB of heap, a quarter of the bridge's memory, to save an allocation on a
      // bridge that sends a few messages a minute.
      writeCache: false,
      will: { topic: BRIDGE_AVAILABILITY, payload: Buffer.from("offline"), qos: 1, retain: true },
    };
    // Not connectAsync: it gives up on a broker that is not there yet; this waits for it.
    const client = connect({ ...brokerEndpoint(broker.url), ...options });
    this.#client = client;
    client.on("connect", () => void this.#onConnect());
    client.on("close", () => {
      this.#connected.set(false);
      if (!this.#lostLogged && !client.disconnecting && this.#everConnected) {
        this.#lostLogged = true;
        this.#o.logger.warn("the MQTT broker is away; facts wait for it");
      }
    });
    client.on("message", (topic, payload) => {
      if (topic === HOME_ASSISTANT_STATUS) {
        this.#homeAssistant.said(payload.toString());
        if (payload.toString() === "online") this.#o.onHomeAssistantOnline();
      } else {
        this.#o.onMessage?.(topic, payload);
      }
    });
    return client;
  }

  #onError(client: MqttClient, error: unknown): void {
    const classified = this.#classify(error);
    if (classified instanceof BrokerRefusedError) this.#refuse(client, classified, !this.#refused);
  }

  /** Refused: this client ends, and the broker is asked again later when it can be. */
  #refuse(client: MqttClient, refused: BrokerRefusedError, log: boolean): void {
    this.#refused = refused;
    if (log) this.#o.logger.error(refused.message);
    client.end(true);
    this.#retire(client);
    if (!this.#o.askBrokerAgain || this.#closed) return;
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#askAgain(), this.#o.refusedRetryMs ?? REFUSED_RETRY_MS);
    this.#retry.unref?.();
  }

  /** After a refusal: the broker as its source gives it now (new credentials?), tried once more. */
  async #askAgain(): Promise<void> {
    const ask = this.#o.askBrokerAgain;
    if (!ask || this.#closed) return;
    const broker = await ask().catch((error: unknown) => {
      this.#o.logger.debug({ err: error }, "the MQTT broker could not be asked again");
      return null;
    });
    if (this.#closed) return;
    const same = broker !== null && sameBroker(broker, this.#broker);
    if (!broker || (same && ++this.#asksSinceTry < SAME_CREDENTIALS_EVERY)) {
      // None installed, no answer, or what was refused: asked again later, still refused.
      this.#retry = setTimeout(() => void this.#askAgain(), this.#o.refusedRetryMs ?? REFUSED_RETRY_MS);
      this.#retry.unref?.();
      return;
    }
    this.#asksSinceTry = 0;
    this.#broker = broker;
    const client = this.#start(broker);
    client.on("error", (error) => this.#onError(client, error));
  }

  whenConnected(signal: AbortSignal): Promise<void> {
    return this.#connected.wait(signal);
  }

  /**
   * Publishes (QoS 1) and resolves once the broker has it; BrokerUnavailableError when offline, or
   * when the link ends the client before the broker acknowledged it (a refusal, close()). A link
   * that only drops waits: MQTT.js sends the message again once it is back.
   */
  async publish(message: StateMessage): Promise<void> {
    const client = this.#client;
    if (!client?.connected) throw new BrokerUnavailableError("not connected to the MQTT broker");
    const waiting = this.#inFlight.get(client) ?? new Set();
    this.#inFlight.set(client, waiting);
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error) => {
        waiting.delete(fail);
        reject(error);
      };
      waiting.add(fail);
      client.publish(message.topic, message.payload, { qos: 1, retain: message.retain }, (error) => {
        waiting.delete(fail);
        if (error) reject(error);
        else resolve();
      });
    });
  }

  /** The client is ended for good: what still waits for its receipt fails (see #inFlight). */
  #retire(client: MqttClient): void {
    const waiting = this.#inFlight.get(client);
    this.#inFlight.delete(client);
    for (const fail of waiting ?? []) {
      fail(
        new BrokerUnavailableError("the link to the MQTT broker ended before it acknowledged the message"),
      );
    }
  }

  async publishAll(messages: readonly StateMessage[]): Promise<void> {
    for (const message of messages) await this.publish(message);
  }

  /** Disconnects cleanly: no last will (the caller says what it wants the bridge to show). */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    if (!client) return;
    // Gently (a DISCONNECT, so no last will) when nothing waits for a receipt: MQTT.js would
    // otherwise hold the end until every receipt came, and a broker that does not answer sends none.
    const waiting = (this.#inFlight.get(client)?.size ?? 0) > 0;
    this.#retire(client);
    await client.endAsync(waiting || !client.connected).catch(() => undefined);
  }

  async #onConnect(): Promise<void> {
    const client = this.#client;
    if (!client?.connected) return;
    this.#everConnected = true;
    if (this.#lostLogged) this.#o.logger.info("the MQTT broker is back");
    this.#lostLogged = false;
    try {
      await client.subscribeAsync([HOME_ASSISTANT_STATUS, ...(this.#o.subscriptions ?? [])], { qos: 1 });
      await client.publishAsync(BRIDGE_AVAILABILITY, "online", { qos: 1, retain: true });
    } catch (error) {
      this.#o.logger.warn({ err: error }, "the MQTT broker did not take the bridge's birth message");
      return;
    }
    this.#connected.set(true);
    if (this.#refused) {
      this.#refused = undefined;
      this.#o.logger.info("the MQTT broker accepted the credentials the Supervisor gives now");
      this.#o.onRefusalEnded?.();
    }
  }

  #classify(error: unknown): Error {
    const code = (error as { code?: unknown })?.code;
    const where = new URL(this.#broker.url).host;
    if (typeof code === "number" && REFUSED_CODES.has(code)) {
      return new BrokerRefusedError(
        `the MQTT broker at ${where} refused the bridge's credentials: check the MQTT user and password`,
      );
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}

function sameBroker(a: BrokerAddress, b: BrokerAddress): boolean {
  return a.url === b.url && a.username === b.username && a.password === b.password;
}
