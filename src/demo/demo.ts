import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App } from "../app.js";
import type { BridgeConfig } from "../config/load-config.js";
import { LiveViewSink } from "../console/live-view-sink.js";
import { createLogger } from "../log/logger.js";
import { ApiSimulator } from "../simulator/index.js";
import type { DemoArgs } from "./demo-args.js";
import { DEMO_ENTITY_PREFIX, demoConfig } from "./demo-config.js";
import {
  householdClock,
  householdOnBridgeClock,
  householdStart,
  householdTimeZone,
} from "./household-clock.js";

export interface DemoOptions extends DemoArgs {
  env: NodeJS.ProcessEnv;
  output: NodeJS.WritableStream;
  errorOutput: NodeJS.WritableStream;
  /** A terminal: the view redraws in place; otherwise plain lines. */
  interactive: boolean;
}

/**
 * `npm run demo`: the API simulator's demo household in this process with its clock running
 * fast, the bridge against it, and the live view as a sink (beside Home Assistant when HA_URL and
 * HA_TOKEN are set). Started in order by start(), taken down in reverse by stop().
 *
 * The store lives in a fresh temporary directory, removed at stop: the simulated household starts
 * again at the same hour each run, with the same fact ids (it is seeded), so a store kept from an
 * earlier run would hold a cursor hours of simulated time ahead and drop today's facts as already
 * delivered, and the demo would open on an empty screen.
 */
export class Demo {
  readonly #o: DemoOptions;
  #dataDir: string | undefined;
  #simulator: ApiSimulator | undefined;
  #view: LiveViewSink | undefined;
  #app: App | undefined;
  /** Aborted by stop(): a start under way makes nothing more. */
  readonly #abort = new AbortController();
  #starting: Promise<void> | undefined;

  constructor(options: DemoOptions) {
    this.#o = options;
  }

  /** Starts in order; a stop during it ends it at the next step, quietly, as App.start does. */
  async start(): Promise<void> {
    const signal = this.#abort.signal;
    this.#starting = this.#start(signal).catch((error: unknown) => {
      if (!signal.aborted) throw error;
    });
    await this.#starting;
  }

  async #start(signal: AbortSignal): Promise<void> {
    const o = this.#o;
    this.#dataDir = await mkdtemp(join(tmpdir(), "reward-facts-demo-"));
    signal.throwIfAborted();
    const timeZone = householdTimeZone();
    const startsAt = householdStart(o.start, timeZone, Date.now());
    const clock = householdClock(o.speed, startsAt);
    const simulator = await ApiSimulator.start({ clock, timeZone });
    this.#simulator = simulator;
    signal.throwIfAborted();
    const config = demoConfig({
      env: o.env,
      apiBaseUrl: simulator.url,
      apiToken: simulator.tokens.household,
      dataDir: this.#dataDir,
      timeZone,
    });
    const view = new LiveViewSink({
      output: o.output,
      errorOutput: o.errorOutput,
      interactive: o.interactive,
      header: headerLines(o, config, simulator),
      timeZone,
      now: () => clock.now(),
      requestsLastMinute: () => servedInLastMinute(simulator, o.speed),
    });
    this.#view = view;
    const logger = createLogger({
      level: config.options.log_level,
      // The simulator's tokens are harmless, but a log that shows them teaches the wrong habit.
      secrets: [simulator.tokens.household, simulator.tokens.other, config.homeAssistant?.token ?? ""],
      destination: view.logDestination(),
    });
    view.start();
    this.#app = new App({
      config,
      logger,
      extraSink: view,
      bridgeTimeOf: householdOnBridgeClock(clock, o.speed, startsAt),
    });
    await this.#app.start();
  }

  /**
   * The bridge first (no request left in flight), then its API, then the screen and the store,
   * each even when one before failed. Rejects with the first failure once all were tried.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    const failures: unknown[] = [];
    const step = (action: () => Promise<unknown> | undefined) =>
      Promise.resolve()
        .then(action)
        .catch((error: unknown) => failures.push(error));
    // The app's stop ends its start under way; a start not that far ends at its next step.
    await step(() => this.#app?.stop());
    await this.#starting?.catch(() => undefined);
    await step(() => this.#simulator?.stop());
    await step(() => this.#view?.close());
    await step(() => (this.#dataDir ? rm(this.#dataDir, { recursive: true, force: true }) : undefined));
    if (failures.length > 0) throw failures[0];
  }
}

function headerLines(args: DemoArgs, config: BridgeConfig, simulator: ApiSimulator): string[] {
  const names = Object.values(simulator.children)
    .filter((child) => child.id !== simulator.children.other.id)
    .map((child) => child.firstName)
    .join(", ");
  const start = `${String(args.start.hour).padStart(2, "0")}:${String(args.start.minute).padStart(2, "0")}`;
  const ha = config.homeAssistant;
  return [
    "Household Reward Facts bridge: demo. Ctrl-C to stop.",
    `A simulated household (${names}), no real data; its clock runs ×${args.speed} from ${start} today.`,
    ha
      ? // The engine reads nothing until Home Assistant is connected: say so, or a silent screen
        // looks like a hang while it is down.
        `Also publishing to Home Assistant at ${ha.url} as sensor.${DEMO_ENTITY_PREFIX}_… and ` +
        `${DEMO_ENTITY_PREFIX}_event (never the real ids), removed when the demo stops; ` +
        "nothing shows until it is connected."
      : "Shown here only: set HA_URL and HA_TOKEN to publish to a Home Assistant as well.",
  ];
}

/**
 * Requests the simulator served in the last real minute. The bridge is its only client, so this is
 * the bridge's own count, live; the simulator times them by its clock, `speed` times faster.
 */
function servedInLastMinute(simulator: ApiSimulator, speed: number): number {
  const since = simulator.clock.now() - 60_000 * speed;
  const served = simulator.requests;
  let count = 0;
  for (let i = served.length - 1; i >= 0 && (served[i]?.at ?? 0) > since; i--) count++;
  return count;
}
