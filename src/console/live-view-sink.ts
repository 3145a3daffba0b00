import { Writable } from "node:stream";
import { createLogUpdate } from "log-update";
import type { Today } from "../api/schemas.js";
import type {
  ChildRef,
  DeliveryOutcome,
  EngineStatus,
  FactDelivery,
  Sink,
  UnavailableReason,
} from "../engine/sink.js";
import { reasonText } from "../engine/unavailable-reason.js";
import { ConsoleSink } from "./console-sink.js";
import { DEFAULT_MAX_EVENTS, LiveModel } from "./live-model.js";
import { renderLiveView } from "./live-render.js";

export interface LiveViewOptions {
  output: NodeJS.WritableStream;
  /** Redraw in place (a terminal), or write plain lines (a pipe, a CI log). */
  interactive: boolean;
  /** Where log lines go when they cannot be shown above the view (standard error). */
  errorOutput: NodeJS.WritableStream;
  /** What this is and how to stop it: printed once, or kept at the top of the screen. */
  header: readonly string[];
  /** The zone in which times are shown. */
  timeZone: string;
  /** The clock the screen shows: the simulated household's in the demo. */
  now: () => number;
  /** Redraw period while nothing arrives, so the clock on screen moves. */
  refreshMs?: number;
  maxEvents?: number;
  /**
   * A live count of the requests of the last minute, shown instead of the status's own: the
   * engine republishes its status once a minute when nothing else changes, so its count is up to
   * a minute old by the time it is drawn.
   */
  requestsLastMinute?: () => number;
}

type Screen = ReturnType<typeof createLogUpdate>;

/**
 * The demo's terminal: a table of the children, the bridge's status and the latest facts, redrawn
 * in place on a terminal; the ConsoleSink's plain lines otherwise, so `npm run demo | cat` and CI
 * logs stay readable. Takes facts like any sink, as an extra sink beside Home Assistant or alone.
 */
export class LiveViewSink implements Sink {
  readonly #o: Required<Omit<LiveViewOptions, "requestsLastMinute">> &
    Pick<LiveViewOptions, "requestsLastMinute">;
  readonly #model: LiveModel;
  readonly #plain: ConsoleSink | undefined;
  #screen: Screen | undefined;
  #ticker: NodeJS.Timeout | undefined;
  #drawPending = false;

  constructor(options: LiveViewOptions) {
    this.#o = { refreshMs: 1_000, maxEvents: DEFAULT_MAX_EVENTS, ...options };
    this.#model = new LiveModel(this.#o.maxEvents);
    if (!options.interactive) {
      const output = options.output;
      this.#plain = new ConsoleSink((line) => output.write(`${line}\n`), { timeZone: options.timeZone });
    }
  }

  /** Shows the header (and, on a terminal, the first frame). */
  start(): void {
    if (this.#plain) {
      for (const line of this.#o.header) this.#o.output.write(`${line}\n`);
      return;
    }
    this.#screen = createLogUpdate(this.#o.output);
    // Printed once rather than redrawn: log lines then appear between it and the frame, in order.
    this.#screen.persist(this.#o.header.join("\n"));
    this.#draw();
    // unref: the clock on screen must never be what keeps the process alive.
    this.#ticker = setInterval(() => this.#draw(), this.#o.refreshMs).unref();
  }

  /** Leaves the last frame on screen, the cursor back, and nothing more drawn. Idempotent. */
  async close(): Promise<void> {
    clearInterval(this.#ticker);
    this.#ticker = undefined;
    if (!this.#screen) return;
    this.#draw();
    this.#screen.done();
    this.#screen = undefined;
  }

  /**
   * Where the logger writes. Lines written straight to a terminal would be overwritten by the
   * next frame, or break it: on a terminal they are printed above the frame, which stays below.
   */
  logDestination(): NodeJS.WritableStream {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, callback) => {
        const text = String(chunk).replace(/\n+$/, "");
        if (this.#screen && text !== "") {
          this.#screen.persist(text);
          this.#draw();
        } else if (text !== "") {
          this.#o.errorOutput.write(`${text}\n`);
        }
        callback();
      },
    });
  }

  readonly ready = true;

  /** The screen is started by the demo before the bridge, to show its header at once. */
  async open(): Promise<void> {}
  timeZone(): undefined {
    return undefined;
  }

  async whenReady(): Promise<void> {}

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.#model.setChildren(children);
    await this.#plain?.setChildren(children);
    this.#scheduleDraw();
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    this.#model.setToday(child, today);
    await this.#plain?.publishToday(child, today);
    this.#scheduleDraw();
  }

  async publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    this.#model.addEvent(child, delivery.event);
    await this.#plain?.publishEvent(child, delivery);
    this.#scheduleDraw();
    return {};
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.#model.setStatus(status);
    await this.#plain?.publishStatus(status);
    this.#scheduleDraw();
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    this.#model.setUnavailable(child, reasonText(reason));
    await this.#plain?.markUnavailable(child, reason);
    this.#scheduleDraw();
  }

  /** A page of facts arrives as a burst of calls: one frame for the burst, not one per fact. */
  #scheduleDraw(): void {
    if (!this.#screen || this.#drawPending) return;
    this.#drawPending = true;
    setImmediate(() => {
      this.#drawPending = false;
      this.#draw();
    });
  }

  #draw(): void {
    if (!this.#screen) return;
    const frame = this.#model.frame();
    const count = this.#o.requestsLastMinute;
    const status = frame.status && count ? { ...frame.status, requestsLastMinute: count() } : frame.status;
    this.#screen(
      renderLiveView(
        { ...frame, status },
        { now: this.#o.now(), timeZone: this.#o.timeZone, maxEvents: this.#o.maxEvents },
      ),
    );
  }
}
