import {
  type Auth,
  type Connection,
  createLongLivedTokenAuth,
  ERR_CANNOT_CONNECT,
  type HassConfig,
  type HassUser,
} from "home-assistant-js-websocket";
import type { Logger } from "../../log/logger.js";
import { sleep } from "../../time/sleep.js";
import {
  HomeAssistantNotAdminError,
  HomeAssistantNotConnectedError,
  toHomeAssistantError,
} from "./errors.js";
import { Reachability } from "./reachability.js";
import { ReadyGate } from "./ready-gate.js";
import { connectUnlessStopped, ensureWebSocket } from "./socket-opening.js";

/** Between attempts of the first connection (the library's own pace when it retries). */
const FIRST_CONNECT_RETRY_MS = 1_000;
/** Until the first connection: why not is logged after this (a start with Home Assistant up takes less). */
const PROBE_AT_START_MS = 5_000;
/** After a drop: Home Assistant restarting is normal; why it is still away is logged after this. */
const PROBE_AFTER_DROP_MS = 30_000;

export interface HomeAssistantLinkOptions {
  /** Base URL of Home Assistant (http://supervisor/core in the add-on). */
  url: string;
  token: string;
  logger: Logger;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
  /**
   * Keep trying the first connection until Home Assistant answers (the bridge, which may start
   * before it); a one-shot command gives up at once instead. True unless told.
   */
  retryFirstConnect?: boolean;
}

/** What a user of the link hears of it: each hook optional. */
export interface LinkListener {
  /**
   * After every (re)connection once Core is RUNNING, before the link counts as ready: the link
   * waits for it (the sink republishes here).
   */
  running?(): Promise<void>;
  /** The link became ready (after every listener's `running`). */
  ready?(): void;
  /** Home Assistant's general settings changed (its language, its time zone…). */
  configUpdated?(): void;
  /**
   * The link dropped: Home Assistant stopped, died, or the network failed. Which one cannot be
   * told: Core ends its websocket connections on its stop event before it would forward that event
   * to them (2024.3 and 2026.11 alike, measured), so no client ever sees `homeassistant_stop`.
   * Not at close().
   */
  disconnected?(): void;
}

/**
 * The websocket link to Home Assistant: connects (retrying the first connect forever, like the
 * library does every reconnect), waits until Core is RUNNING, and tells when the link is ready.
 * The library reconnects and re-subscribes by itself; this adds the wait for RUNNING after each
 * reconnect and a heartbeat (the library has none, so a half-open socket would hang forever).
 */
export class HomeAssistantLink {
  readonly #o: Required<HomeAssistantLinkOptions>;
  readonly #listeners = new Set<LinkListener>();
  /** The first open, shared by every user of the link (the lease opens it, the sink finds it open). */
  #opened: Promise<void> | undefined;
  #conn: Connection | undefined;
  readonly #readiness = new ReadyGate();
  #config: HassConfig | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #closed = false;
  /** Aborted by close(): ends the first connection's retries. */
  readonly #closing = new AbortController();
  #generation = 0;
  readonly #reachability: Reachability;
  /** The probe running while the link is down. */
  #probing: AbortController | undefined;

  constructor(options: HomeAssistantLinkOptions) {
    this.#o = {
      heartbeatMs: 30_000,
      pongTimeoutMs: 10_000,
      retryFirstConnect: true,
      ...options,
    };
    this.#reachability = new Reachability({ url: options.url, token: options.token, logger: options.logger });
  }

  /**
   * Adds a listener; returns what removes it. One that waits for `running` joined a link already
   * connected: the link is not ready again until it has run (the sink, after the lease).
   */
  listen(listener: LinkListener): () => void {
    this.#listeners.add(listener);
    if (listener.running && this.#conn?.connected && !this.#closed) {
      this.#setReady(false);
      void this.#onConnected();
    }
    return () => this.#listeners.delete(listener);
  }

  /**
   * Connects; resolves once connected (not necessarily RUNNING). Throws on a refused token, and
   * HomeAssistantNotConnectedError when closed, or `signal` aborted (a stop during start-up), before
   * it could connect. Opened once: a later call resolves with the first.
   */
  open(signal?: AbortSignal): Promise<void> {
    this.#opened ??= this.#open(signal);
    return this.#opened;
  }

  async #open(signal?: AbortSignal): Promise<void> {
    await ensureWebSocket();
    const stop = signal ? AbortSignal.any([this.#closing.signal, signal]) : this.#closing.signal;
    if (this.#o.retryFirstConnect) this.#probe(PROBE_AT_START_MS);
    let conn: Connection;
    try {
      conn = await this.#connectFirst(createLongLivedTokenAuth(this.#o.url, this.#o.token), stop);
    } finally {
      this.#probing?.abort();
    }
    this.#conn = conn;
    this.#reachability.connected();
    if (this.#o.requireAdmin) await this.#checkAdmin(conn);
    conn.addEventListener("ready", () => {
      this.#probing?.abort();
      this.#reachability.connected();
      void this.#onConnected();
    });
    conn.addEventListener("disconnected", () => {
      this.#setReady(false);
      for (const listener of this.#listeners) listener.disconnected?.();
      this.#o.logger.warn("Home Assistant disconnected; waiting for it to come back");
      this.#probe(PROBE_AFTER_DROP_MS);
    });
    conn.addEventListener("reconnect-error", () => {
      this.#probing?.abort();
      this.#setReady(false);
      this.#o.logger.error("Home Assistant now refuses the token; trying again in a minute");
      setTimeout(() => this.#conn?.reconnect(true), 60_000).unref();
    });
    await conn.subscribeEvents(() => void this.#onConnected(), "homeassistant_started");
    await conn.subscribeEvents(() => void this.#readConfigAgain(), "core_config_updated");
    this.#startHeartbeat();
    void this.#onConnected();
  }

  /** The household's time zone as Home Assistant knows it, once connected. */
  get timeZone(): string | undefined {
    return this.#config?.time_zone;
  }

  /** Home Assistant's language (`en`, `fr`, `pt-BR`…), once connected. */
  /** Whether Home Assistant has loaded the integration (`conversation`), as of the last connection. */
  hasComponent(component: string): boolean {
    return this.#config?.components.includes(component) ?? false;
  }

  get language(): string | undefined {
    return this.#config?.language;
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
    this.#closing.abort();
    this.#probing?.abort();
    clearInterval(this.#heartbeat);
    this.#setReady(false);
    this.#conn?.close();
  }

  /**
   * The first connection: the library's own retries (setupRetry -1) cannot be stopped, so a bridge
   * closed before Home Assistant answered would connect later all the same; these end when `stop`
   * aborts (close(), or the opener's signal), an attempt under way too.
   */
  async #connectFirst(auth: Auth, stop: AbortSignal): Promise<Connection> {
    while (!stop.aborted) {
      try {
        const conn = await connectUnlessStopped(auth, stop);
        if (conn) return conn;
      } catch (error) {
        if (error !== ERR_CANNOT_CONNECT || !this.#o.retryFirstConnect) throw toHomeAssistantError(error);
      }
      await sleep(FIRST_CONNECT_RETRY_MS, stop).catch(() => undefined);
    }
    throw new HomeAssistantNotConnectedError("closed before Home Assistant could be reached");
  }

  /** Logs why Home Assistant cannot be reached, from `firstAfterMs` on, until the link is up. */
  #probe(firstAfterMs: number): void {
    if (this.#closed) return;
    this.#probing?.abort();
    this.#probing = new AbortController();
    void this.#reachability.watch(firstAfterMs, this.#probing.signal);
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
      for (const listener of [...this.#listeners]) await listener.running?.();
      if (generation !== this.#generation || this.#closed) return;
      this.#setReady(true);
    } catch (error) {
      this.#o.logger.debug({ err: error }, "Home Assistant not ready yet");
    }
  }

  /** Home Assistant's general settings changed: read them again, and say so. */
  async #readConfigAgain(): Promise<void> {
    try {
      const config = await this.command<HassConfig>({ type: "get_config" });
      if (this.#closed) return;
      this.#config = config;
      for (const listener of this.#listeners) listener.configUpdated?.();
    } catch (error) {
      this.#o.logger.debug({ err: error }, "Home Assistant's settings could not be read again");
    }
  }

  #setReady(ready: boolean): void {
    if (ready && !this.#readiness.isOpen) for (const listener of this.#listeners) listener.ready?.();
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
