import type { HaEvent, HaSocket } from "./ha-websocket.js";

/** Records every event of one type that Home Assistant fires, on a websocket of its own. */
export interface EventRecorder {
  readonly eventType: string;
  /** Everything received so far, oldest first. Events fired while HA was down are never seen. */
  readonly events: HaEvent[];
  close(): Promise<void>;
}

/**
 * The recorder behind `subscribeEvents`. It does not reconnect by itself: the instance calls
 * `resubscribe()` at the end of `restart()`, so that once `restart()` resolves, every recorder is
 * listening again and a test cannot fire an event into a gap it knows nothing about.
 */
export class RecordingSubscription implements EventRecorder {
  readonly events: HaEvent[] = [];
  #socket: HaSocket | undefined;
  #closed = false;

  constructor(
    readonly eventType: string,
    private readonly openSocket: () => Promise<HaSocket>,
    private readonly onClose: (recorder: RecordingSubscription) => void,
  ) {}

  get isClosed(): boolean {
    return this.#closed;
  }

  /** Opens a new socket and subscribes again; the events recorded so far are kept. */
  async resubscribe(): Promise<void> {
    if (this.#closed) return;
    if (this.#socket?.isOpen) await this.#socket.close();
    const socket = await this.openSocket();
    await socket.subscribeEvents(this.eventType, (event) => this.events.push(event));
    this.#socket = socket;
    if (this.#closed) await socket.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.onClose(this);
    await this.#socket?.close();
  }
}
