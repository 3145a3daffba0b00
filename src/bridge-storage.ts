// What the bridge keeps in its data directory: the keyed store and the logs beside it, opened
// together. A directory that refuses them is tried again every few seconds rather than exiting: the
// add-on's watchdog would restart a crashed bridge into the same wall, and nothing is read from the
// API (so nothing is lost) until it works.
import type { Logger } from "./log/logger.js";
import {
  DeliveredLog,
  openStore,
  RecentDeliveryLog,
  RequestLog,
  type Store,
  StoreError,
} from "./store/index.js";
import { sleep } from "./time/sleep.js";

const STORAGE_RETRY_MS = 5_000;
/** The requests of this long are kept for the rate budget across restarts (its window, and some). */
const REQUEST_HISTORY_MS = 2 * 60_000;

export interface BridgeStorageOptions {
  dataDir: string;
  logger: Logger;
  /**
   * How long a fact sent to Home Assistant is kept in the recent deliveries' log; only with Home
   * Assistant, and without it there is no such log.
   */
  recentDeliveriesKeepMs?: number | undefined;
}

/**
 * The store and the logs, each once it has opened. A part that opened is kept while the others are
 * tried again, and a stop during the tries leaves it here: whoever stops the bridge closes what
 * opened, in the order it takes the bridge down.
 */
export class BridgeStorage {
  readonly #options: BridgeStorageOptions;
  #store: Store | undefined;
  #delivered: DeliveredLog | undefined;
  #requests: RequestLog | undefined;
  #recentDeliveries: RecentDeliveryLog | undefined;

  constructor(options: BridgeStorageOptions) {
    this.#options = options;
  }

  get store(): Store | undefined {
    return this.#store;
  }

  get delivered(): DeliveredLog | undefined {
    return this.#delivered;
  }

  get requests(): RequestLog | undefined {
    return this.#requests;
  }

  /** The facts sent to Home Assistant lately (only with Home Assistant). */
  get recentDeliveries(): RecentDeliveryLog | undefined {
    return this.#recentDeliveries;
  }

  /**
   * Opens what is not open yet, trying again until everything is or the signal aborts (then it
   * resolves, with what opened so far). `onAttempt` is called before each try: the bridge is alive
   * while it waits, and its heartbeat says so.
   */
  async open(signal: AbortSignal, onAttempt: () => void): Promise<void> {
    const { dataDir, logger, recentDeliveriesKeepMs } = this.#options;
    let reported = false;
    while (!signal.aborted) {
      onAttempt();
      try {
        this.#store ??= await openStore({ dataDir, logger });
        this.#delivered ??= DeliveredLog.open({ dataDir, logger });
        this.#requests ??= RequestLog.open({ dataDir, keepMs: REQUEST_HISTORY_MS });
        if (recentDeliveriesKeepMs !== undefined)
          this.#recentDeliveries ??= RecentDeliveryLog.open({
            dataDir,
            keepMs: recentDeliveriesKeepMs,
            logger,
          });
        if (reported) logger.info({ dataDir }, "the data directory works now");
        return;
      } catch (error) {
        if (!(error instanceof StoreError)) throw error;
        if (!reported) {
          logger.error(
            `cannot use the data directory (${error.message}); nothing is read from the API until it ` +
              `can be written. Retrying every ${STORAGE_RETRY_MS / 1000} s.`,
          );
          reported = true;
        }
        await sleep(STORAGE_RETRY_MS, signal).catch(() => undefined);
      }
    }
  }
}
