import {
  type Connection,
  createConnection,
  createLongLivedTokenAuth,
  type HassConfig,
  type HassUser,
} from "home-assistant-js-websocket";
import type { Logger } from "../log/logger.js";
import {
  HomeAssistantNotAdminError,
  HomeAssistantNotConnectedError,
  toHomeAssistantError,
} from "./errors.js";
import { ReadyGate } from "./ready-gate.js";

export interface HaConnectionOptions {
  /** Base URL of Home Assistant (http://supervisor/core in the add-on). */
  url: string;
  token: string;
  logger: Logger;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
  /** Called after every (re)connection once Core is RUNNING, before the link counts as ready. */
  onRunning: () => Promise<void>;
  /**
   * Called when the link drops: Home Assistant stopped, died, or the network failed. Which one
   * cannot be told: Core ends its websocket connections on its stop event before it would forward
   * that event to them (2024.3 and 2026.11 alike, measured), so no client ever sees
   * `homeassistant_stop`.
   */
  onDisconnected?: () => void;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
  /**
   * Keep trying the first connection until Home Assistant answers (the bridge, which may start
   * before it); a one-shot command gives up at once instead. True unless told.
   */
  retryFirstConnect?: boolean;
}

/**
 * The library opens its socket with the global WebSocket: made ws here, on every Node. Node 20 has
 * none; Node 22 and later define one, but it is Node's own bundled copy of undici, loaded whole on
 * the first read of the global (measured on Node 24 against Home Assistant: about 10 MiB anonymous
 * and 5 MiB of the node binary more than through ws). Writing the global replaces Node's lazy
 * getter without calling it, so the global is never read first.
 */
async function ensureWebSocket(): Promise<void> {
  const { WebSocket } = await import("ws");
  (globalThis as { WebSocket?: unknown }).WebSocket = class extends WebSocket {
    // Without compression (ws offers it, and Home Assistant takes it): a pair of zlib streams held
    // for the link's life, to shrink messages of a few hundred bytes on a local network.
    constructor(address: string | URL, protocols?: string | string[]) {
      super(address, protocols, { perMessageDeflate: false });
    }
  };
}

/**
 * The websocket link to Home Assistant: connects (retrying the first connect forever, like the
 * library does every reconnect), waits until Core is RUNNING, and tells when the link is ready.
 * The library reconnects and re-subscribes by itself; this adds the wait for RUNNING after each
 * reconnect and a heartbeat (the library has none, so a half-open socket would hang forever).
 */
export class HaConnection {
  readonly #o: Required<HaConnectionOptions>;
  #conn: Connection | undefined;
  readonly #readiness = new ReadyGate();
  #config: HassConfig | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;
  #generation = 0;

  constructor(options: HaConnectionOptions) {
    this.#o = {
      heartbeatMs: 30_000,
      pongTimeoutMs: 10_000,
      retryFirstConnect: true,
      onDisconnected: () => {},
      ...options,
    };
  }

  /** Connects; resolves once connected (not necessarily RUNNING). Throws on a refused token. */
  async open(): Promise<void> {
    await ensureWebSocket();
    let conn: Connection;
    try {
      conn = await createConnection({
        auth: createLongLivedTokenAuth(this.#o.url, this.#o.token),
        setupRetry: this.#o.retryFirstConnect ? -1 : 0,
      });
    } catch (error) {
      throw toHomeAssistantError(error);
    }
    this.#conn = conn;
    if (this.#o.requireAdmin) await this.#checkAdmin(conn);
    conn.addEventListener("ready", () => void this.#onConnected());
    conn.addEventListener("disconnected", () => {
      this.#setReady(false);
      this.#o.onDisconnected();
      this.#o.logger.warn("Home Assistant disconnected; waiting for it to come back");
    });
    conn.addEventListener("reconnect-error", () => {
      this.#setReady(false);
      this.#o.logger.error("Home Assistant now refuses the token; trying again in a minute");
      setTimeout(() => this.#conn?.reconnect(true), 60_000).unref();
    });
    await conn.subscribeEvents(() => void this.#onConnected(), "homeassistant_started");
    this.#startHeartbeat();
    void this.#onConnected();
  }

  /** The household's time zone as Home Assistant knows it, once connected. */
  get timeZone(): string | undefined {
    return this.#config?.time_zone;
  }

  get ready(): boolean {
    return this.#readiness.isOpen;
  }

  /** Home Assistant's version (`2026.11.0`), once connected. */
  get haVersion(): string | undefined {
    return this.#conn?.haVersion;
  }

  /** Scripts spell a service call `action:` from Home Assistant 2024.8; `service:` before. */
  get supportsActionKey(): boolean {
    const [year = 0, month = 0] = (this.#conn?.haVersion ?? "").split(".").map(Number);
    return year > 2024 || (year === 2024 && month >= 8);
  }

  whenReady(signal: AbortSignal): Promise<void> {
    return this.#readiness.wait(signal);
  }

  /**
   * Sends a websocket command. When the link is up, the message leaves before this returns (the
   * library writes to the socket synchronously): callers rely on that (see Sink.publishEvent).
   * Rejects with HomeAssistantNotConnectedError when it could not leave at all.
   */
  command<T>(message: { type: string; [key: string]: unknown }): Promise<T> {
    const conn = this.#conn;
    if (!conn?.connected)
      return Promise.reject(new HomeAssistantNotConnectedError("not connected to Home Assistant"));
    return conn.sendMessagePromise<T>(message).catch((reason: unknown) => {
      throw toHomeAssistantError(reason);
    });
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#setReady(false);
    this.#conn?.close();
  }

  async #checkAdmin(conn: Connection): Promise<void> {
    const user = await conn
      .sendMessagePromise<HassUser>({ type: "auth/current_user" })
      .catch((reason: unknown) => {
        throw toHomeAssistantError(reason);
      });
    if (!user.is_admin) {
      conn.close();
      throw new HomeAssistantNotAdminError(
        `the Home Assistant token belongs to "${user.name}", who is not an administrator: ` +
          "create a long-lived token of an administrator (Profile → Security) for HA_TOKEN",
      );
    }
  }

  /** After a (re)connection: ready once Core says RUNNING and the caller has republished. */
  async #onConnected(): Promise<void> {
    const generation = ++this.#generation;
    try {
      const config = await this.command<HassConfig>({ type: "get_config" });
      if (generation !== this.#generation || this.#closed) return;
      this.#config = config;
      // Not RUNNING yet: homeassistant_started (subscribed above) brings us back here.
      if (config.state !== "RUNNING") return;
      await this.#o.onRunning();
      if (generation !== this.#generation || this.#closed) return;
      this.#setReady(true);
    } catch (error) {
      this.#o.logger.debug({ err: error }, "Home Assistant not ready yet");
    }
  }

  #setReady(ready: boolean): void {
    if (ready && !this.#readiness.isOpen) this.#o.logger.info("Home Assistant is running: publishing");
    this.#readiness.set(ready);
  }

  #startHeartbeat(): void {
    this.#heartbeat = setInterval(() => {
      const conn = this.#conn;
      if (!conn?.connected) return;
      const timeout = setTimeout(() => {
        this.#o.logger.warn("Home Assistant did not answer a ping; reconnecting");
        conn.reconnect(true);
      }, this.#o.pongTimeoutMs);
      conn.ping().then(
        () => clearTimeout(timeout),
        () => clearTimeout(timeout),
      );
    }, this.#o.heartbeatMs);
    this.#heartbeat.unref();
  }
}
