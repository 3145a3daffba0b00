// What the configuration sets of the engine: the polling the options ask for, and what a test bends
// over them (config/test-hooks.ts). The rest of the engine's options are the wiring's (app.ts).
import type { BridgeOptions } from "./config/options-schema.js";
import type { TestHooks } from "./config/test-hooks.js";
import type { EngineOptions } from "./engine/engine.js";
import type { Logger } from "./log/logger.js";
import { sleep } from "./time/sleep.js";

type PollingOptions = Pick<
  EngineOptions,
  "eventsIntervalMs" | "todayIntervalMs" | "childrenFilter" | "replayedAfterMs" | "minutesLowThresholds"
>;

type TestIntervals = Pick<EngineOptions, "eventsIntervalMs" | "todayIntervalMs" | "statusIntervalMs">;

/** The engine's options the configuration sets: the options', with a test's hooks over them. */
export function configuredEngineOptions(
  options: BridgeOptions,
  testHooks: TestHooks,
  logger: Logger,
): PollingOptions & Partial<TestIntervals> & Pick<EngineOptions, "pauseAt"> {
  return {
    ...pollingOptions(options),
    ...(testHooks.intervalsMs ? testIntervals(testHooks.intervalsMs) : {}),
    ...(testHooks.pause ? { pauseAt: testPause(testHooks.pause, logger) } : {}),
  };
}

/** What the bridge's options set of the engine's polling (options-schema.ts holds their defaults). */
export function pollingOptions(options: BridgeOptions): PollingOptions {
  return {
    eventsIntervalMs: options.events_interval_seconds * 1000,
    todayIntervalMs: options.today_interval_seconds * 1000,
    childrenFilter: options.children,
    replayedAfterMs: options.replayed_after_minutes * 60_000,
    minutesLowThresholds: options.minutes_low_thresholds,
  };
}

/** The engine's intervals a test sets, over the options'. */
function testIntervals(ms: NonNullable<TestHooks["intervalsMs"]>): TestIntervals {
  return {
    eventsIntervalMs: ms.events,
    todayIntervalMs: ms.today,
    ...(ms.status ? { statusIntervalMs: ms.status } : {}),
  };
}

/** The test hook: logs where it pauses, so that a test knows when to kill. */
function testPause(pause: NonNullable<TestHooks["pause"]>, logger: Logger) {
  return async (moment: string, eventId: string) => {
    if (moment !== pause.moment) return;
    logger.warn({ event: eventId, moment, ms: pause.ms }, "test pause in a delivery");
    await sleep(pause.ms);
  };
}
