// The removal step as a run of its own (`--remove`, REWARD_FACTS_REMOVE, the add-on's
// remove_from_home_assistant): what run-bridge.ts does instead of starting the bridge. It resolves
// with the exit code main turns into the process's: 0 when everything went, 1 when a kind could
// not be removed (or Home Assistant could not be reached), 2 when a person must fix something first.
import { knownBroker } from "./broker-choice.js";
import { type BridgeConfig, homeAssistantAccess } from "./config/load-config.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK } from "./exit-codes.js";
import { DEMO_ENTITY_PREFIX, RemovalRefusedError, removeFromHomeAssistant } from "./ha/index.js";
import type { Logger } from "./log/logger.js";
import { forgetHomeAssistant } from "./store/index.js";

/** However long Home Assistant takes to come up, the removal gives up after this. */
const REMOVAL_LIMIT_MS = 5 * 60_000;

export async function runRemoval(
  config: BridgeConfig,
  logger: Logger,
  stop: AbortSignal,
  /** `force`: even while another bridge holds the household lease (`--force`). */
  options: { force?: boolean } = {},
): Promise<number> {
  const homeAssistant = config.homeAssistant;
  if (!homeAssistant) {
    logger.error(
      "REWARD_FACTS_REMOVE: needs HA_URL and HA_TOKEN (what the bridge made is in Home Assistant)",
    );
    return EXIT_CONFIG;
  }
  const signal = AbortSignal.any([stop, AbortSignal.timeout(REMOVAL_LIMIT_MS)]);
  logger.info({ url: homeAssistant.url }, "removing everything the bridge made from Home Assistant");
  try {
    const result = await removeFromHomeAssistant({
      ...homeAssistantAccess(homeAssistant),
      broker: await knownBroker(config, signal),
      logger,
      besides: [DEMO_ENTITY_PREFIX],
      signal,
      force: options.force === true,
    });
    if (result.failed.length > 0) return EXIT_FAILURE;
    // Home Assistant holds nothing of the bridge now: neither does the data directory's memory of it.
    try {
      await forgetHomeAssistant(config.dataDir, logger);
    } catch (error) {
      logger.warn(
        { dataDir: config.dataDir, reason: (error as Error).message },
        "the data directory could not forget what it knew of Home Assistant: run the removal again",
      );
      return EXIT_FAILURE;
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof RemovalRefusedError) {
      logger.error(`nothing was removed: ${error.message}`);
      return EXIT_CONFIG;
    }
    const reason = signal.aborted
      ? stop.aborted
        ? "stopped before it was done"
        : `Home Assistant did not answer within ${REMOVAL_LIMIT_MS / 60_000} minutes`
      : error instanceof Error
        ? error.message
        : String(error);
    logger.error(`the removal failed: ${reason}; nothing more was removed`);
    return EXIT_FAILURE;
  }
}
