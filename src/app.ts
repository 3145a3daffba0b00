import { RewardFactsClient } from "./api/client.js";
import { BridgeStorage } from "./bridge-storage.js";
import { publishingBroker } from "./broker-choice.js";
import { type BridgeConfig, homeAssistantAccess } from "./config/load-config.js";
import { ConsoleSink } from "./console/console-sink.js";
import { Engine } from "./engine/engine.js";
import type { BridgeTimeOf } from "./engine/fact-age.js";
import { FanOutSink } from "./engine/fan-out-sink.js";
import { RateBudget } from "./engine/rate-budget.js";
import type { Sink } from "./engine/sink.js";
import { configuredEngineOptions } from "./engine-options.js";
import {
  type BrokerAddress,
  type HeldLease,
  type HomeAssistantLink,
  holdHouseholdLease,
  homeAssistantLink,
  homeAssistantSink,
  REDELIVERY_WINDOW_MS,
} from "./ha/index.js";
import { Heartbeat } from "./health/heartbeat.js";
import type { Logger } from "./log/logger.js";
import {
  assistMemoryOn,
  bridgeIdentityOn,
  cursorStoreOn,
  derivedStoreOn,
  diaryMemoryOn,
  type RecentDeliveryLog,
  type Store,
  slugMemoryOn,
  weekMemoryOn,
} from "./store/index.js";

export interface AppOptions {
  config: BridgeConfig;
  logger: Logger;
  /** Where facts go besides Home Assistant (the demo's terminal view); the log when there is no HA. */
  extraSink?: Sink;
  /** The API's instants on the bridge's clock, when the API runs a clock of its own (the demo's). */
  bridgeTimeOf?: BridgeTimeOf;
}

/**
 * The bridge, wired: store, API client and its rate budget, the sink (Home Assistant, or the
 * terminal), the engine. Built in order by start(), taken down in reverse by stop().
 */
export class App {
  readonly #config: BridgeConfig;
  readonly #logger: Logger;
  readonly #extraSink: Sink | undefined;
  readonly #bridgeTimeOf: BridgeTimeOf | undefined;
  /** The data directory's store and logs, each once it has opened. */
  readonly #storage: BridgeStorage;
  #client: RewardFactsClient | undefined;
  #sink: Sink | undefined;
  #engine: Engine | undefined;
  /** Held before anything is published to Home Assistant: one bridge per household. */
  #lease: HeldLease | undefined;
  /** The run's one link to Home Assistant: the lease opens it, the sink joins it. */
  #link: HomeAssistantLink | undefined;
  /** Aborted by stop(): ends a start under way at its next step. */
  readonly #abort = new AbortController();
  /** The start, once begun: stop() waits for it to end before it takes anything down. */
  #starting: Promise<void> | undefined;
  #failed: (error: unknown) => void = () => undefined;
  /**
   * Rejects when the bridge fails on its own after start-up (its main loop ended with an error);
   * never settles otherwise. The caller stops the app and exits with the failure's code.
   */
  readonly failed = new Promise<never>((_, reject) => {
    this.#failed = reject;
  });

  constructor(options: AppOptions) {
    this.#config = options.config;
    this.#logger = options.logger;
    this.#extraSink = options.extraSink;
    this.#bridgeTimeOf = options.bridgeTimeOf;
    this.#storage = new BridgeStorage({
      dataDir: this.#config.dataDir,
      logger: this.#logger,
      recentDeliveriesKeepMs: this.#config.homeAssistant ? this.#redeliveryWindowMs : undefined,
    });
    // Observed by the caller, but not before start(): an early failure must not go unhandled.
    this.failed.catch(() => undefined);
  }

  /**
   * Brings the parts up in order. A stop during it ends it at the next step (the waits take the
   * stop's signal, and each step looks for it before the next begins), quietly: nothing more is
   * started, and stop() takes down what was.
   */
  async start(): Promise<void> {
    const signal = this.#abort.signal;
    this.#starting = this.#start(signal).catch((error: unknown) => {
      // A step cut short by the stop (a connection given up, say) is no failure of the start.
      if (!signal.aborted) throw error;
    });
    await this.#starting;
  }

  async #start(signal: AbortSignal): Promise<void> {
    const config = this.#config;
    const logger = this.#logger;
    const options = config.options;
    const heartbeat = new Heartbeat(config.heartbeatFile);
    await this.#storage.open(signal, () => heartbeat.beat());
    signal.throwIfAborted();
    const { store, delivered, requests } = this.#storage;
    if (!store || !delivered || !requests) return;
    const testHooks = config.testHooks ?? {};
    const budget = new RateBudget({
      history: requests,
      logger,
      ...(testHooks.apiLimitPerMinute ? { limitPerMinute: testHooks.apiLimitPerMinute } : {}),
    });
    this.#client = new RewardFactsClient({
      token: options.api_token,
      baseUrl: options.api_base_url,
      legacyBaseUrl: options.api_legacy_base_url,
      logger,
      beforeRequest: (requestSignal) => budget.acquire(requestSignal),
    });
    const broker = await publishingBroker(config, logger, signal);
    signal.throwIfAborted();
    if (config.homeAssistant)
      this.#link = homeAssistantLink(homeAssistantAccess(config.homeAssistant), { logger });
    // Before the API is asked anything or Home Assistant (or the broker) given anything: a second
    // bridge waits here.
    this.#lease = await this.#holdLease(store, heartbeat, signal);
    signal.throwIfAborted();
    const sink = await this.#buildSink(broker, signal);
    this.#sink = sink;
    // Built, not opened: stop() closes it. The engine does not start after a stop.
    signal.throwIfAborted();
    this.#engine = new Engine({
      reader: this.#client,
      budget,
      sink,
      cursors: cursorStoreOn(store, logger),
      derived: derivedStoreOn(store, logger),
      delivered,
      logger,
      timeZone: () => sink.timeZone() ?? config.timeZone,
      ...configuredEngineOptions(options, testHooks, logger),
      onTurn: () => heartbeat.beat(),
      bridgeTimeOf: this.#bridgeTimeOf,
    });
    this.#engine.start().catch((error: unknown) => this.#failed(error));
    // The engine waits for the sink by itself (and keeps the heartbeat fresh meanwhile, however
    // long Home Assistant takes to come up); a refused token still ends start-up with its error.
    await sink.open();
    signal.throwIfAborted();
    logger.info(
      { events: options.events_interval_seconds, today: options.today_interval_seconds },
      "polling the Reward Facts API",
    );
  }

  /** The household lease, when there is a Home Assistant; waits while another bridge holds it. */
  async #holdLease(store: Store, heartbeat: Heartbeat, signal: AbortSignal): Promise<HeldLease | undefined> {
    const { homeAssistant } = this.#config;
    // The demo publishes under names of its own, beside the household's bridge, not instead of it.
    if (!homeAssistant || this.#config.entityPrefix) return undefined;
    const instanceId = await bridgeIdentityOn(store, this.#logger);
    if (!this.#link) return undefined;
    return holdHouseholdLease({
      link: this.#link,
      access: homeAssistantAccess(homeAssistant),
      logger: this.#logger,
      instanceId,
      mode: this.#config.mode,
      ...(this.#config.testHooks?.leaseBeatMs ? { beatMs: this.#config.testHooks.leaseBeatMs } : {}),
      onWait: () => heartbeat.beat(),
      onLost: (error) => {
        this.#logger.error(`${error.message}: this bridge stops publishing`);
        this.#failed(error);
      },
      signal,
    });
  }

  /** Home Assistant when configured, the extra sink (the demo's screen), else the log. */
  async #buildSink(broker: BrokerAddress | null, signal: AbortSignal): Promise<Sink> {
    const { homeAssistant } = this.#config;
    const sinks: Sink[] = [];
    if (homeAssistant && this.#link) {
      this.#logger.info({ url: homeAssistant.url }, "connecting to Home Assistant");
      sinks.push(
        await homeAssistantSink({
          link: this.#link,
          ...homeAssistantAccess(homeAssistant),
          logger: this.#logger,
          broker,
          supervisor: this.#config.broker.kind === "supervisor" ? this.#config.broker : undefined,
          entityPrefix: this.#config.entityPrefix,
          removeOnStop: this.#config.removeOnStop,
          dashboard: this.#config.options.dashboard,
          assist: this.#config.options.assist,
          todayIntervalSeconds: this.#config.options.today_interval_seconds,
          assistMemory: this.#store ? assistMemoryOn(this.#store, this.#logger) : undefined,
          diaryMemory: this.#store ? diaryMemoryOn(this.#store, this.#logger) : undefined,
          weekMemory: this.#store ? weekMemoryOn(this.#store, this.#logger) : undefined,
          recentDeliveries: this.#recentDeliveries,
          redeliveryWindowMs: this.#redeliveryWindowMs,
          lease: this.#lease && {
            guard: this.#lease.guard,
            // A fact refused for the lease: judged again now, not at the next beat.
            reclaim: () => this.#lease?.check() ?? Promise.resolve(false),
          },
          slugMemory: this.#store ? slugMemoryOn(this.#store, this.#logger) : undefined,
          // The engine is made after the sink: a press reaches it once it is there.
          readNow: (childId) => this.#engine?.readNow(childId),
          signal,
        }),
      );
    }
    if (this.#extraSink) sinks.push(this.#extraSink);
    if (sinks.length === 0) {
      this.#logger.warn(
        "no Home Assistant configured (HA_URL, HA_TOKEN): facts are only written to this log",
      );
      sinks.push(new ConsoleSink((line) => this.#logger.info(line)));
    }
    return sinks.length === 1 ? (sinks[0] as Sink) : new FanOutSink(sinks);
  }

  /**
   * Stops in reverse order, every part even when one fails: no new request, the one in flight
   * aborted, the store flushed, then Home Assistant told the bridge is stopping. Rejects with the
   * first failure once everything has been tried.
   */
  async stop(): Promise<void> {
    this.#abort.abort();
    // A start under way ends at its next step; then what it made is taken down, and nothing after.
    await this.#starting?.catch(() => undefined);
    const failures: unknown[] = [];
    const step = async (what: string, action: () => unknown) => {
      try {
        await action();
      } catch (error) {
        failures.push(error);
        this.#logger.error({ err: error }, `stopping: ${what} failed`);
      }
    };
    await step("the engine", () => this.#engine?.stop());
    await step("the store", () => this.#storage.store?.close());
    await step("the delivered-events log", () => this.#storage.delivered?.close());
    await step("the API request log", () => this.#storage.requests?.close());
    await step("telling Home Assistant", () => this.#engine?.publishStopped());
    await step("the publisher", () => this.#sink?.close());
    // After the publisher: until it is closed, a reconnection may still send facts again.
    await step("the recent-deliveries log", () => this.#storage.recentDeliveries?.close());
    await step("the API client", () => this.#client?.close());
    // Last: another bridge may take over once this one has said all it had to say.
    await step("the household lease", () => this.#lease?.release());
    await step("the link to Home Assistant", () => this.#link?.close());
    if (failures.length > 0) throw failures[0];
  }

  /** The keyed store, once open: the sink keeps the bridge's memories in it. */
  get #store(): Store | undefined {
    return this.#storage.store;
  }

  /** The facts sent to Home Assistant lately, once their log is open (only with Home Assistant). */
  get #recentDeliveries(): RecentDeliveryLog | undefined {
    return this.#storage.recentDeliveries;
  }

  /** How long a fact Home Assistant answered may be owed after a drop (a test may shorten it). */
  get #redeliveryWindowMs(): number {
    return this.#config.testHooks?.redeliveryWindowMs ?? REDELIVERY_WINDOW_MS;
  }
}
