// Every add-on option with the environment variable that carries it standalone and what it does,
// and every other environment variable the bridge reads: the one list that the loader takes the
// variables' names from (load-config.ts) and that `npm start -- --help` prints (help.ts).
import type { BridgeOptions } from "./options-schema.js";

export interface OptionRow {
  /** The environment variable of a standalone bridge. */
  env: string;
  /** What the option does, for --help. */
  help: string;
}

export const optionTable: Record<keyof BridgeOptions, OptionRow> = {
  api_token: {
    env: "REWARD_FACTS_API_TOKEN",
    help: "the household's read-only token, from the app (begins with rf_api_)",
  },
  api_base_url: {
    env: "REWARD_FACTS_API_BASE_URL",
    help: "the API's base address (https, or http on loopback only)",
  },
  api_legacy_base_url: {
    env: "REWARD_FACTS_API_LEGACY_BASE_URL",
    help: "the API's original base address, tried when the main one fails",
  },
  events_interval_seconds: {
    env: "REWARD_FACTS_EVENTS_INTERVAL_SECONDS",
    help: "how often each child's journal is read, in seconds (10 to 3600)",
  },
  today_interval_seconds: {
    env: "REWARD_FACTS_TODAY_INTERVAL_SECONDS",
    help: "how often each child's day is refreshed, in seconds (15 to 3600)",
  },
  children: {
    env: "REWARD_FACTS_CHILDREN",
    help: "the children to follow, comma-separated first names or ids (none: every child)",
  },
  replayed_after_minutes: {
    env: "REWARD_FACTS_REPLAYED_AFTER_MINUTES",
    help: "a fact older than this many minutes arrives marked replayed (1 to 10080)",
  },
  minutes_low_thresholds: {
    env: "REWARD_FACTS_MINUTES_LOW_THRESHOLDS",
    help: "minutes remaining at which minutes_low fires, comma-separated (1 to 240 each)",
  },
  log_level: { env: "REWARD_FACTS_LOG_LEVEL", help: "how much the log says" },
  publish: {
    env: "REWARD_FACTS_PUBLISH",
    help: "how entities reach Home Assistant (auto: mqtt when a broker is known, else rest)",
  },
  dashboard: { env: "REWARD_FACTS_DASHBOARD", help: "true: make and keep a Rewards dashboard" },
  remove_from_home_assistant: {
    env: "REWARD_FACTS_REMOVE",
    help: "instead of running, remove everything the bridge made in Home Assistant and the broker, say what, and exit (the same as --remove)",
  },
  assist: {
    env: "REWARD_FACTS_ASSIST",
    help: "true: offer the children's minutes, session and streak to Assist, with aliases in the household's language",
  },
};

/** The other variables, in the order --help lists them (REWARD_FACTS_TEST_PAUSE is for tests only). */
export const environmentTable: ReadonlyArray<{ name: string; help: string }> = [
  { name: "HA_URL", help: "standalone: Home Assistant's address, e.g. http://homeassistant.local:8123" },
  { name: "HA_TOKEN", help: "standalone: a long-lived token of an administrator (with HA_URL)" },
  { name: "MQTT_URL", help: "standalone: the MQTT broker, e.g. mqtt://192.168.1.10:1883" },
  { name: "MQTT_USERNAME", help: "standalone: the broker's user (with MQTT_PASSWORD)" },
  { name: "MQTT_PASSWORD", help: "standalone: that user's password" },
  {
    name: "REWARD_FACTS_DATA_DIR",
    help: "where the bridge keeps its store (default ./data, /data in the add-on)",
  },
  { name: "TZ", help: "the household's time zone until Home Assistant tells its own" },
  {
    name: "SUPERVISOR_TOKEN",
    help: "set by the Supervisor: runs as the add-on, options from the options file",
  },
  { name: "REWARD_FACTS_OPTIONS_FILE", help: "the add-on's options file (default /data/options.json)" },
  {
    name: "REWARD_FACTS_HEARTBEAT_FILE",
    help: "the file the main loop touches for the health check (default /tmp/reward-facts.heartbeat)",
  },
];
