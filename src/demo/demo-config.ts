import { join } from "node:path";
import { type BridgeConfig, loadConfig } from "../config/load-config.js";
import { DEMO_ENTITY_PREFIX } from "../ha/index.js";

export interface DemoConfigInput {
  /** The user's environment: only HA_URL, HA_TOKEN and REWARD_FACTS_LOG_LEVEL are read from it. */
  env: NodeJS.ProcessEnv;
  apiBaseUrl: string;
  apiToken: string;
  dataDir: string;
  timeZone: string;
}

/**
 * Polling intervals of the demo: today as often as the options allow (one reading every 15
 * simulated minutes at 60×), events a little less often than allowed so that the three demo
 * children fit the engine's budget on cadence: 3 × (60/13 + 4) requests a minute plus the list
 * of children every 5 minutes is 26.0, under the 95 % of 28 (the API's 30 less the engine's
 * margin of 2) that the cadence plans on (cadence.ts). At 10 s the engine would stretch the today
 * interval by ×1.41 and warn about it, which on a first run reads as something gone wrong.
 */
export const DEMO_EVENTS_INTERVAL_SECONDS = 13;
export const DEMO_TODAY_INTERVAL_SECONDS = 15;

/** The demo's names in Home Assistant (ha/entity-names.ts). */
export { DEMO_ENTITY_PREFIX };

/**
 * The bridge's configuration for the demo, built by the same loader as a real one from an
 * environment made here: the same validation, defaults and "NAME: problem" errors. Nothing else
 * of the user's environment leaks in (a real REWARD_FACTS_DATA_DIR or token, SUPERVISOR_TOKEN).
 * Logs default to warnings: the screen belongs to the view.
 */
export function demoConfig(input: DemoConfigInput): BridgeConfig {
  const { env } = input;
  const config = loadConfig({
    REWARD_FACTS_API_TOKEN: input.apiToken,
    REWARD_FACTS_API_BASE_URL: input.apiBaseUrl,
    REWARD_FACTS_EVENTS_INTERVAL_SECONDS: String(DEMO_EVENTS_INTERVAL_SECONDS),
    REWARD_FACTS_TODAY_INTERVAL_SECONDS: String(DEMO_TODAY_INTERVAL_SECONDS),
    REWARD_FACTS_LOG_LEVEL: env.REWARD_FACTS_LOG_LEVEL || "warning",
    // States written through the API, which the demo deletes when it stops; never registry
    // entities and devices of a broker that would outlive it.
    REWARD_FACTS_PUBLISH: "rest",
    // The dashboard of its children, to see what the bridge's looks like; removed with the rest.
    REWARD_FACTS_DASHBOARD: "true",
    REWARD_FACTS_DATA_DIR: input.dataDir,
    // Beside the store, not /tmp's: a real bridge on this machine keeps its own heartbeat.
    REWARD_FACTS_HEARTBEAT_FILE: join(input.dataDir, "heartbeat"),
    TZ: input.timeZone,
    HA_URL: env.HA_URL,
    HA_TOKEN: env.HA_TOKEN,
  });
  // Its entities, events and helpers apart, and gone from Home Assistant when it stops.
  return { ...config, entityPrefix: DEMO_ENTITY_PREFIX, removeOnStop: true };
}
