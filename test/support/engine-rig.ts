import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { RewardFactsClient } from "../../src/api/client.js";
import { optionsSchema } from "../../src/config/options-schema.js";
import { Engine, type EngineOptions } from "../../src/engine/engine.js";
import { RateBudget } from "../../src/engine/rate-budget.js";
import type { CursorStore } from "../../src/engine/storage.js";
import { pollingOptions } from "../../src/engine-options.js";
import { createLogger, type Logger } from "../../src/log/logger.js";
import { ApiSimulator, type SimulatorOptions } from "../../src/simulator/index.js";
import { cursorStoreOn } from "../../src/store/cursor-store.js";
import { DeliveredLog } from "../../src/store/delivered-log.js";
import { derivedStoreOn } from "../../src/store/derived-store.js";
import { openStore, type Store } from "../../src/store/index.js";
import { RequestLog } from "../../src/store/request-log.js";
import { busiestMinute } from "./busiest-minute.js";
import { RecordingSink } from "./recording-sink.js";
import { VirtualTime } from "./virtual-time.js";

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** Log lines as JSON objects, kept for assertions (and for the token check). */
export class LogCollector {
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  readonly stream = new Writable({
    write: (chunk, _encoding, done) => {
      for (const text of String(chunk).split("\n")) {
        if (text === "") continue;
        this.raw.push(text);
        this.lines.push(JSON.parse(text) as LogLine);
      }
      done();
    },
  });

  logger(secrets: readonly string[] = []): Logger {
    return createLogger({ json: true, destination: this.stream, level: "debug", secrets });
  }

  matching(pattern: RegExp): LogLine[] {
    return this.lines.filter((line) => pattern.test(line.msg));
  }
}

type EngineTuning = Partial<
  Omit<EngineOptions, "reader" | "budget" | "sink" | "cursors" | "delivered" | "logger">
>;

export interface EngineRigOptions {
  /** Virtual start instant (ISO 8601). */
  start: string;
  simulator?: SimulatorOptions;
  engine?: EngineTuning;
  /** Runs once the simulator is up, before the engine starts (add children, facts…). */
  prepare?: (sim: ApiSimulator) => EngineTuning | undefined;
  /** Another household token than the demo one. */
  token?: (sim: ApiSimulator) => string;
}

/**
 * The engine wired to the simulator over loopback HTTP, with a durable store in a temp dir, a
 * recording sink and virtual time. `restart()` builds a new engine on the same data dir, as a
 * process restart would.
 */
export class EngineRig {
  readonly time: VirtualTime;
  readonly sim: ApiSimulator;
  readonly sink = new RecordingSink();
  readonly logs = new LogCollector();
  readonly dataDir: string;
  readonly token: string;
  readonly #tuning: EngineTuning;
  engine!: Engine;
  client!: RewardFactsClient;
  budget!: RateBudget;
  store!: Store;
  cursors!: CursorStore;
  delivered!: DeliveredLog;
  requests!: RequestLog;
  /** What ended the engine's loop on its own, if anything did. */
  failure: unknown;

  private constructor(time: VirtualTime, sim: ApiSimulator, dataDir: string, options: EngineRigOptions) {
    this.time = time;
    this.sim = sim;
    this.dataDir = dataDir;
    this.token = options.token?.(sim) ?? sim.tokens.household;
    this.#tuning = { ...options.engine, ...options.prepare?.(sim) };
  }

  static async start(options: EngineRigOptions): Promise<EngineRig> {
    const time = VirtualTime.install(options.start);
    const sim = await ApiSimulator.start({ activity: false, ...options.simulator });
    const dataDir = await mkdtemp(join(tmpdir(), "rf-engine-"));
    const rig = new EngineRig(time, sim, dataDir, options);
    await rig.#build();
    return rig;
  }

  async #build(): Promise<void> {
    const logger = this.logs.logger([this.token]);
    this.requests = RequestLog.open({ dataDir: this.dataDir, keepMs: 120_000 });
    // Seeded like the engine below: the pacing and the pauses after a 429 repeat from run to run.
    this.budget = new RateBudget({ history: this.requests, random: seededRandom(8), logger });
    const budget = this.budget;
    this.client = new RewardFactsClient({
      token: this.token,
      baseUrl: this.sim.url,
      logger,
      // The bridge's own deadline (REQUEST_DEADLINE_MS): the fault suites hold it to it.
      beforeRequest: (signal) => budget.acquire(signal),
    });
    this.store = await this.time.track(openStore({ dataDir: this.dataDir, logger }));
    const cursors = cursorStoreOn(this.store, logger);
    // Store writes are file I/O: virtual time waits for them like for HTTP.
    this.cursors = {
      get: (id) => cursors.get(id),
      set: (id, cursor) => this.time.track(cursors.set(id, cursor)),
      delete: (id) => this.time.track(cursors.delete(id)),
    };
    this.delivered = DeliveredLog.open({ dataDir: this.dataDir, logger });
    const derived = derivedStoreOn(this.store, logger);
    this.engine = new Engine({
      reader: this.client,
      budget: this.budget,
      sink: this.sink,
      cursors: this.cursors,
      derived: {
        get: (id) => derived.get(id),
        set: (id, record) => this.time.track(derived.set(id, record)),
      },
      delivered: this.delivered,
      logger,
      timeZone: () => this.sim.timeZone,
      // The bridge's own pace, every option at its default, unless the test tunes it.
      ...pollingOptions(optionsSchema.parse({ api_token: this.token, api_base_url: this.sim.url })),
      retryMinTimeoutMs: 1_000,
      random: seededRandom(7),
      ...this.#tuning,
    });
    this.engine.start().catch((error: unknown) => {
      this.failure = error;
    });
  }

  /**
   * Stops the engine and builds a new one on the same data dir (a restart of the bridge);
   * `meanwhile` runs while none runs, with the ledger reopened (to leave there what a crash would).
   */
  async restart(meanwhile?: (stopped: { delivered: DeliveredLog }) => void): Promise<void> {
    await this.#stopEngine();
    if (meanwhile) {
      const reopened = DeliveredLog.open({ dataDir: this.dataDir, logger: this.logs.logger() });
      meanwhile({ delivered: reopened });
      reopened.close();
    }
    await this.#build();
  }

  /**
   * A restart on a data directory that lost what it held (deleted, or moved aside as unreadable):
   * `damage` runs on it while no engine runs; it is emptied when none is given.
   */
  async restartOnDamagedDataDir(damage?: (dataDir: string) => Promise<void>): Promise<void> {
    await this.#stopEngine();
    if (damage) await damage(this.dataDir);
    else {
      await rm(this.dataDir, { recursive: true, force: true });
      await mkdir(this.dataDir);
    }
    await this.#build();
  }

  async #stopEngine(): Promise<void> {
    await this.engine.stop();
    await this.time.track(this.store.close());
    this.delivered.close();
    this.requests.close();
    await this.client.close();
  }

  async close(): Promise<void> {
    await this.#stopEngine();
    await this.sim.stop();
    this.time.uninstall();
  }

  /** Requests the simulator served with the rig's token, with their virtual time. */
  served(pathPattern?: RegExp) {
    return this.sim.requests.filter((r) => (pathPattern ? pathPattern.test(r.path) : true));
  }

  /** The largest number of requests the simulator saw in any 60 s window. */
  maxInAnyMinute(): number {
    return busiestMinute(this.sim.requests.map((r) => r.at));
  }
}

/** A small deterministic generator (mulberry32), so that jitter repeats from run to run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
