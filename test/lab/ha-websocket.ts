import WebSocket from "ws";

/** An event as Home Assistant sends it on `subscribe_events`. */
export interface HaEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: string;
  time_fired: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
}

/** A websocket command Home Assistant answered with `success: false`. */
export class HaCommandError extends Error {
  override name = "HaCommandError";
  constructor(
    readonly type: string,
    readonly code: string,
    message: string,
  ) {
    super(`${type}: ${code}: ${message}`);
  }
}

interface Pending {
  type: string;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

type Incoming =
  | {
      type: "result";
      id: number;
      success: boolean;
      result?: unknown;
      error?: { code: string; message: string };
    }
  | { type: "event"; id: number; event: HaEvent }
  | { type: string; id?: number; message?: string };

/**
 * A minimal client for HA's websocket API: authenticate, send commands, receive subscribed events.
 * Kept apart from the bridge's own connection code on purpose, so the tests do not check the
 * bridge's client with itself.
 */
export class HaSocket {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<number, (event: HaEvent) => void>();
  readonly closed: Promise<void>;
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    socket.on("message", (raw) => this.#receive(JSON.parse(raw.toString()) as Incoming));
    socket.once("close", () => {
      for (const pending of this.#pending.values()) {
        pending.reject(new Error(`websocket closed before ${pending.type} was answered`));
      }
      this.#pending.clear();
    });
  }

  /** Connects to `ws(s)://…/api/websocket` and authenticates with an access token. */
  static open(url: string, accessToken: string, timeoutMs = 10_000): Promise<HaSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
      const timer = setTimeout(() => {
        socket.terminate();
        reject(new Error(`websocket ${url}: no auth_ok within ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        socket.terminate();
        reject(error);
      };
      socket.once("error", (error) => fail(new Error(`websocket ${url}: ${error.message}`)));
      socket.once("close", () => fail(new Error(`websocket ${url} closed during authentication`)));
      socket.on("message", function onAuth(raw) {
        const message = JSON.parse(raw.toString()) as Incoming;
        if (message.type === "auth_required") {
          socket.send(JSON.stringify({ type: "auth", access_token: accessToken }));
        } else if (message.type === "auth_ok") {
          clearTimeout(timer);
          socket.off("message", onAuth);
          socket.removeAllListeners("close");
          socket.removeAllListeners("error");
          // Errors after the handshake surface as `close`; a listener keeps them from being thrown.
          socket.on("error", () => {});
          resolve(new HaSocket(socket));
        } else {
          // auth_invalid's message never contains the token, so it is safe to pass on.
          fail(
            new Error(`websocket ${url}: ${message.type}: ${"message" in message ? message.message : ""}`),
          );
        }
      });
    });
  }

  get isOpen(): boolean {
    return this.#socket.readyState === WebSocket.OPEN;
  }

  /** Sends a command (an `id` is added) and resolves with its `result`. */
  command<T = unknown>(message: { type: string } & Record<string, unknown>): Promise<T> {
    if (!this.isOpen) return Promise.reject(new Error(`websocket is closed, cannot send ${message.type}`));
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { type: message.type, resolve: resolve as (result: unknown) => void, reject });
      this.#socket.send(JSON.stringify({ ...message, id }));
    });
  }

  /** Subscribes to one event type; `onEvent` runs for each event until the socket closes. */
  async subscribeEvents(eventType: string, onEvent: (event: HaEvent) => void): Promise<void> {
    // The id is known before the command leaves, so no event can arrive without its listener.
    const id = this.#nextId;
    this.#listeners.set(id, onEvent);
    try {
      await this.command({ type: "subscribe_events", event_type: eventType });
    } catch (error) {
      this.#listeners.delete(id);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#socket.readyState !== WebSocket.CLOSED) this.#socket.close();
    await this.closed;
  }

  #receive(message: Incoming): void {
    if (message.type === "event" && "event" in message) {
      this.#listeners.get(message.id)?.(message.event);
      return;
    }
    if (message.type !== "result" || !("success" in message)) return;
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    if (message.success) pending.resolve(message.result);
    else
      pending.reject(
        new HaCommandError(pending.type, message.error?.code ?? "?", message.error?.message ?? ""),
      );
  }
}
