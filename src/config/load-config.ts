import { readFileSync } from "node:fs";
import { DEFAULT_HEARTBEAT_FILE } from "../health/heartbeat.js";
import type * as z from "../zod.js";
import { type BrokerSource, standaloneBroker } from "./broker-config.js";
import { optionTable } from "./option-table.js";
import { type BridgeOptions, optionsSchema, removalOptionsSchema } from "./options-schema.js";
import { type TestHooks, testHooksOf } from "./test-hooks.js";

/** Bad configuration: one `name: problem` line per problem, names as the user wrote them. */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`invalid configuration:\n${problems.join("\n")}`);
    this.problems = problems;
  }
}

export type HomeAssistantTarget =
  /** Inside the add-on: the Supervisor's proxy to Core, as an admin. */
  | { kind: "supervisor"; url: string; token: string }
  /** Standalone: a Home Assistant URL and a long-lived token of an admin user. */
  | { kind: "standalone"; url: string; token: string };

/** What a connection to Home Assistant is given: where, with which token, and whether it must be an admin's. */
export interface HomeAssistantAccess {
  url: string;
  token: string;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
}

export function homeAssistantAccess(target: HomeAssistantTarget): HomeAssistantAccess {
  return { url: target.url, token: target.token, requireAdmin: target.kind === "standalone" };
}

export interface BridgeConfig {
  options: BridgeOptions;
  /** Where the store lives: `/data` in the add-on, `./data` standalone. */
  dataDir: string;
  /** null when there is no Home Assistant to publish to (facts go to the log only). */
  homeAssistant: HomeAssistantTarget | null;
  /** Where the MQTT broker is (the `publish` option decides whether it is used). */
  broker: BrokerSource;
  /** `TZ` when set (the fallback until Home Assistant tells its own); unset: the system's zone. */
  timeZone: string | undefined;
  mode: "addon" | "standalone";
  /** Touched by the main loop for the container's HEALTHCHECK. */
  heartbeatFile: string;
  /**
   * What goes before every id in Home Assistant (entities, the event type, helpers): the
   * contract's `reward_facts` when absent; the demo's own, so its simulated children reach no
   * automation of the house.
   */
  entityPrefix?: string;
  /** Remove what was published from Home Assistant when stopping (the demo leaves nothing behind). */
  removeOnStop?: boolean;
  /** What only tests set (test-hooks.ts); none in a user's run. */
  testHooks?: TestHooks;
}

/** The Supervisor, as an add-on reaches it: Core through its proxy, and its services API. */
export const SUPERVISOR_URL = "http://supervisor";
export const SUPERVISOR_CORE_URL = `${SUPERVISOR_URL}/core`;
const DEFAULT_OPTIONS_FILE = "/data/options.json";

/** Each add-on option and the environment variable that carries it standalone (option-table.ts). */
export const environmentNames = Object.fromEntries(
  Object.entries(optionTable).map(([key, row]) => [key, row.env]),
) as Record<keyof BridgeOptions, string>;

const numericOptions = new Set<keyof BridgeOptions>([
  "events_interval_seconds",
  "today_interval_seconds",
  "replayed_after_minutes",
]);
const booleanOptions = new Set<keyof BridgeOptions>(["dashboard", "remove_from_home_assistant", "assist"]);

/** An environment variable's words for yes and no; anything else stays text, which the schema refuses. */
function booleanOf(value: string): boolean | string {
  if (/^\s*(true|yes|on|1)\s*$/i.test(value)) return true;
  if (/^\s*(false|no|off|0)\s*$/i.test(value)) return false;
  return value;
}

/**
 * Reads the configuration: `/data/options.json` in the add-on (told apart by SUPERVISOR_TOKEN),
 * the environment standalone. Throws ConfigError listing every problem at once.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = readUtf8,
  /** `--remove` on the command line: the removal step, which needs nothing of the API. */
  asked: { removal?: boolean } = {},
): BridgeConfig {
  const addon = Boolean(env.SUPERVISOR_TOKEN);
  const problems: string[] = [];
  const raw = addon
    ? readOptionsFile(env.REWARD_FACTS_OPTIONS_FILE ?? DEFAULT_OPTIONS_FILE, readFile, problems)
    : fromEnvironment(env);
  const nameOf = (key: string) => (addon ? key : (environmentNames[key as keyof BridgeOptions] ?? key));

  const removing =
    asked.removal === true ||
    (raw as { remove_from_home_assistant?: unknown } | undefined)?.remove_from_home_assistant === true;
  const parsed =
    raw === undefined ? undefined : removing ? removalOptions(raw) : optionsSchema.safeParse(raw);
  if (parsed && !parsed.success) problems.push(...describeIssues(parsed.error, nameOf, raw));

  const homeAssistant = addon ? supervisorTarget(env) : standaloneTarget(env, problems);
  const broker: BrokerSource = addon
    ? { kind: "supervisor", url: SUPERVISOR_URL, token: env.SUPERVISOR_TOKEN as string }
    : standaloneBroker(env, problems);
  if (!addon && parsed?.success) {
    const publish = parsed.data.publish;
    if (publish === "mqtt" && broker.kind === "none")
      problems.push(`${nameOf("publish")}: mqtt needs the broker's address in MQTT_URL`);
    if (broker.kind === "url" && publish !== "rest" && !homeAssistant)
      problems.push(
        "MQTT_URL: also needs HA_URL and HA_TOKEN (the events and delivery records go through Home Assistant's API)",
      );
  }
  if (problems.length > 0 || !parsed?.success) throw new ConfigError(problems);
  return {
    options: parsed.data,
    dataDir: env.REWARD_FACTS_DATA_DIR || (addon ? "/data" : "./data"),
    homeAssistant,
    broker,
    timeZone: env.TZ || undefined,
    mode: addon ? "addon" : "standalone",
    heartbeatFile: env.REWARD_FACTS_HEARTBEAT_FILE || DEFAULT_HEARTBEAT_FILE,
    testHooks: testHooksOf(env),
  };
}

/** The options of the removal step: the API's are neither needed nor read (it never calls it). */
function removalOptions(raw: unknown) {
  const parsed = removalOptionsSchema.safeParse(raw);
  if (!parsed.success) return parsed;
  const options: BridgeOptions = { ...parsed.data, api_token: "", api_base_url: "" };
  return { success: true as const, data: options };
}

function readUtf8(path: string): string {
  return readFileSync(path, "utf8");
}

function readOptionsFile(path: string, readFile: (path: string) => string, problems: string[]): unknown {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    problems.push(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    problems.push(`${path}: is not valid JSON`);
    return undefined;
  }
}

function fromEnvironment(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(environmentNames) as Array<[keyof BridgeOptions, string]>) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    if (key === "children")
      options[key] = value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
    else if (key === "minutes_low_thresholds")
      options[key] = value
        .split(",")
        .map((entry) => (/^\s*\d+\s*$/.test(entry) ? Number(entry) : entry.trim()));
    else if (numericOptions.has(key))
      options[key] = /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
    else if (booleanOptions.has(key)) options[key] = booleanOf(value);
    else options[key] = value;
  }
  return options;
}

function supervisorTarget(env: NodeJS.ProcessEnv): HomeAssistantTarget {
  return { kind: "supervisor", url: SUPERVISOR_CORE_URL, token: env.SUPERVISOR_TOKEN as string };
}

function standaloneTarget(env: NodeJS.ProcessEnv, problems: string[]): HomeAssistantTarget | null {
  const url = env.HA_URL?.trim() || undefined;
  const token = env.HA_TOKEN?.trim() || undefined;
  if (!url && !token) return null;
  if (!token) problems.push("HA_TOKEN: required when HA_URL is set (a long-lived token of an admin user)");
  if (!url) problems.push("HA_URL: required when HA_TOKEN is set (e.g. http://homeassistant.local:8123)");
  if (url && !/^https?:\/\/[^/\s]+/.test(url)) problems.push("HA_URL: must be an http:// or https:// URL");
  return url && token ? { kind: "standalone", url: url.replace(/\/+$/, ""), token } : null;
}

/** zod issues as `name: problem` lines a person can act on. */
function describeIssues(error: z.core.$ZodError, nameOf: (key: string) => string, raw: unknown): string[] {
  return error.issues.map((issue) => {
    const [key, ...rest] = issue.path.map(String);
    const name = key === undefined ? "options" : `${nameOf(key)}${rest.length ? `[${rest.join(".")}]` : ""}`;
    const given = key !== undefined && (raw as Record<string, unknown> | null)?.[key] !== undefined;
    return `${name}: ${messageOf(issue, given)}`;
  });
}

function messageOf(issue: z.core.$ZodIssue, given: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      if (!given) return "is required";
      if (issue.expected === "boolean") return "must be true or false";
      return `must be ${issue.expected === "number" || issue.expected === "int" ? "a whole number" : `a ${issue.expected}`}`;
    case "too_small":
      return issue.origin === "string" ? "must not be empty" : `must be at least ${issue.minimum}`;
    case "too_big":
      return `must be at most ${issue.maximum}`;
    case "invalid_value":
      return `must be one of ${issue.values.map(String).join(", ")}`;
    case "unrecognized_keys":
      return `unknown option(s) ${issue.keys.join(", ")}`;
    default:
      return issue.message;
  }
}
