import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/load-config.js";

const TOKEN = "rf_api_test_0123456789abcdef";
const good = {
  REWARD_FACTS_API_TOKEN: TOKEN,
  REWARD_FACTS_API_BASE_URL: "https://api.example.com/v1",
};

function problemsOf(env: NodeJS.ProcessEnv, readFile?: (path: string) => string): readonly string[] {
  try {
    loadConfig(env, readFile);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected a ConfigError");
}

describe("standalone configuration from the environment", () => {
  it("takes the contract's defaults", () => {
    const config = loadConfig({ ...good, TZ: "Europe/Paris" });
    expect(config.options).toEqual({
      api_token: TOKEN,
      api_base_url: "https://api.example.com/v1",
      events_interval_seconds: 30,
      today_interval_seconds: 60,
      children: [],
      replayed_after_minutes: 10,
      minutes_low_thresholds: [10, 5],
      publish: "auto",
      dashboard: false,
      remove_from_home_assistant: false,
      assist: true,
      log_level: "info",
    });
    expect(config).toMatchObject({
      dataDir: "./data",
      homeAssistant: null,
      mode: "standalone",
      timeZone: "Europe/Paris",
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      ...good,
      REWARD_FACTS_API_LEGACY_BASE_URL: "https://old.example.com",
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "45",
      REWARD_FACTS_TODAY_INTERVAL_SECONDS: "120",
      REWARD_FACTS_CHILDREN: " Léa, 1234-abcd ,",
      REWARD_FACTS_LOG_LEVEL: "debug",
      REWARD_FACTS_DASHBOARD: "true",
      REWARD_FACTS_DATA_DIR: "/var/lib/reward-facts",
      HA_URL: "http://homeassistant.local:8123/",
      HA_TOKEN: "ha-long-lived",
    });
    expect(config.options).toMatchObject({
      api_legacy_base_url: "https://old.example.com",
      events_interval_seconds: 45,
      today_interval_seconds: 120,
      children: ["Léa", "1234-abcd"],
      log_level: "debug",
      dashboard: true,
    });
    expect(config.dataDir).toBe("/var/lib/reward-facts");
    expect(config.homeAssistant).toEqual({
      kind: "standalone",
      url: "http://homeassistant.local:8123",
      token: "ha-long-lived",
    });
  });

  it.each<[string, NodeJS.ProcessEnv, string]>([
    [
      "a missing token",
      { REWARD_FACTS_API_BASE_URL: good.REWARD_FACTS_API_BASE_URL },
      "REWARD_FACTS_API_TOKEN: is required",
    ],
    [
      "a token without its prefix",
      { ...good, REWARD_FACTS_API_TOKEN: "abc123" },
      "REWARD_FACTS_API_TOKEN: must begin with rf_api_",
    ],
    ["an empty token", { ...good, REWARD_FACTS_API_TOKEN: " " }, "REWARD_FACTS_API_TOKEN: is empty"],
    [
      "http on a remote host",
      { ...good, REWARD_FACTS_API_BASE_URL: "http://api.example.com" },
      "REWARD_FACTS_API_BASE_URL: must use https (http only on a loopback address)",
    ],
    [
      "a legacy URL that is no URL",
      { ...good, REWARD_FACTS_API_LEGACY_BASE_URL: "old" },
      "REWARD_FACTS_API_LEGACY_BASE_URL: is not a URL",
    ],
    [
      "an interval too short",
      { ...good, REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "5" },
      "REWARD_FACTS_EVENTS_INTERVAL_SECONDS: must be at least 10",
    ],
    [
      "an interval too long",
      { ...good, REWARD_FACTS_TODAY_INTERVAL_SECONDS: "99999" },
      "REWARD_FACTS_TODAY_INTERVAL_SECONDS: must be at most 3600",
    ],
    [
      "an interval that is no number",
      { ...good, REWARD_FACTS_TODAY_INTERVAL_SECONDS: "often" },
      "REWARD_FACTS_TODAY_INTERVAL_SECONDS: must be a whole number",
    ],
    [
      "a fractional interval",
      { ...good, REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "12.5" },
      "REWARD_FACTS_EVENTS_INTERVAL_SECONDS: must be a whole number",
    ],
    [
      "a dashboard neither on nor off",
      { ...good, REWARD_FACTS_DASHBOARD: "maybe" },
      "REWARD_FACTS_DASHBOARD: must be true or false",
    ],
    [
      "an unknown log level",
      { ...good, REWARD_FACTS_LOG_LEVEL: "loud" },
      "REWARD_FACTS_LOG_LEVEL: must be one of trace, debug, info, notice, warning, error, fatal",
    ],
    [
      "HA_URL without HA_TOKEN",
      { ...good, HA_URL: "http://ha:8123" },
      "HA_TOKEN: required when HA_URL is set (a long-lived token of an admin user)",
    ],
    [
      "HA_TOKEN without HA_URL",
      { ...good, HA_TOKEN: "x" },
      "HA_URL: required when HA_TOKEN is set (e.g. http://homeassistant.local:8123)",
    ],
    [
      "an HA_URL that is no URL",
      { ...good, HA_URL: "ha:8123", HA_TOKEN: "x" },
      "HA_URL: must be an http:// or https:// URL",
    ],
  ])("refuses %s with one line", (_what, env, line) => {
    expect(problemsOf(env)).toEqual([line]);
  });

  it("reads the MQTT broker, and says what is wrong with it in one line each", () => {
    const ha = { HA_URL: "http://ha.local:8123", HA_TOKEN: "ha-token" };
    expect(loadConfig({ ...good, ...ha, MQTT_URL: "mqtt://10.0.0.2:1883" }).broker).toEqual({
      kind: "url",
      url: "mqtt://10.0.0.2:1883",
      username: undefined,
      password: undefined,
    });
    expect(loadConfig({ ...good }).broker).toEqual({ kind: "none" });
    const secret = "s3cret-pass";
    const cases: Array<[NodeJS.ProcessEnv, string[]]> = [
      [
        { MQTT_URL: "http://10.0.0.2" },
        ["MQTT_URL: must be an mqtt:// or mqtts:// URL with a host, e.g. mqtt://192.168.1.10:1883"],
      ],
      [
        { MQTT_URL: "mqtt://10.0.0.2", MQTT_USERNAME: "bridge" },
        ["MQTT_PASSWORD: required when MQTT_USERNAME is set"],
      ],
      [
        { MQTT_URL: "mqtt://10.0.0.2", MQTT_PASSWORD: secret },
        ["MQTT_USERNAME: required when MQTT_PASSWORD is set"],
      ],
      [
        { MQTT_USERNAME: "bridge", MQTT_PASSWORD: secret },
        ["MQTT_URL: required when MQTT_USERNAME or MQTT_PASSWORD is set"],
      ],
      [
        { MQTT_URL: `mqtt://bridge:${secret}@10.0.0.2` },
        ["MQTT_URL: put the user and password in MQTT_USERNAME and MQTT_PASSWORD, not in the URL"],
      ],
      [
        { REWARD_FACTS_PUBLISH: "mqtt" },
        ["REWARD_FACTS_PUBLISH: mqtt needs the broker's address in MQTT_URL"],
      ],
      [{ REWARD_FACTS_PUBLISH: "carrier-pigeon" }, ["REWARD_FACTS_PUBLISH: must be one of auto, mqtt, rest"]],
    ];
    for (const [env, problems] of cases) {
      const seen = problemsOf({ ...good, ...ha, ...env });
      expect(seen).toEqual(problems);
      expect(seen.join("\n")).not.toContain(secret);
    }
    expect(problemsOf({ ...good, MQTT_URL: "mqtt://10.0.0.2" })).toEqual([
      "MQTT_URL: also needs HA_URL and HA_TOKEN (the events and delivery records go through Home Assistant's API)",
    ]);
  });

  it("reads the minutes-low thresholds as whole numbers, and names the one that is not", () => {
    expect(
      loadConfig({ ...good, REWARD_FACTS_MINUTES_LOW_THRESHOLDS: " 15, 5 " }).options.minutes_low_thresholds,
    ).toEqual([15, 5]);
    expect(problemsOf({ ...good, REWARD_FACTS_MINUTES_LOW_THRESHOLDS: "15,soon" })).toEqual([
      "REWARD_FACTS_MINUTES_LOW_THRESHOLDS[1]: must be a whole number",
    ]);
  });

  it("refuses an MQTT_URL that is no URL at all with the broker's one line", () => {
    expect(problemsOf({ ...good, HA_URL: "http://ha:8123", HA_TOKEN: "x", MQTT_URL: "::" })).toEqual([
      "MQTT_URL: must be an mqtt:// or mqtts:// URL with a host, e.g. mqtt://192.168.1.10:1883",
    ]);
  });

  it("lists every problem at once, one line each, and never shows the token", () => {
    const badToken = "not_a_token_but_secret_looking_123";
    const problems = problemsOf({
      REWARD_FACTS_API_TOKEN: badToken,
      REWARD_FACTS_API_BASE_URL: "ftp://x",
      REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "1",
      HA_URL: "http://ha:8123",
    });
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).not.toContain(badToken);
  });
});

describe("add-on configuration from options.json", () => {
  const addonEnv = { SUPERVISOR_TOKEN: "supervisor-token", REWARD_FACTS_OPTIONS_FILE: "/data/options.json" };
  const optionsJson = (options: object) => () => JSON.stringify(options);

  it("reads options.json and reaches Core through the Supervisor", () => {
    const config = loadConfig(
      addonEnv,
      optionsJson({
        api_token: TOKEN,
        api_base_url: "https://api.example.com/v1",
        api_legacy_base_url: "",
        children: [],
      }),
    );
    expect(config.mode).toBe("addon");
    expect(config.dataDir).toBe("/data");
    expect(config.options.api_legacy_base_url).toBeUndefined();
    expect(config.homeAssistant).toEqual({
      kind: "supervisor",
      url: "http://supervisor/core",
      token: "supervisor-token",
    });
    // Only where to ask: the MQTT wing asks the Supervisor at start (src/ha/entities/mqtt/supervisor-broker.ts).
    expect(config.broker).toEqual({
      kind: "supervisor",
      url: "http://supervisor",
      token: "supervisor-token",
    });
  });

  it("reads options.json from the file the Supervisor wrote", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "rf-options-")), "options.json");
    await writeFile(
      file,
      JSON.stringify({ api_token: TOKEN, api_base_url: "https://api.example.com/v1", children: ["Léa"] }),
    );
    const config = loadConfig({ ...addonEnv, REWARD_FACTS_OPTIONS_FILE: file });
    expect(config.options).toMatchObject({ api_token: TOKEN, children: ["Léa"] });
    expect(config.mode).toBe("addon");
  });

  it("names the add-on options in its problems", () => {
    expect(problemsOf(addonEnv, optionsJson({ api_token: "x", api_base_url: "https://a.example" }))).toEqual([
      "api_token: must begin with rf_api_",
    ]);
    expect(
      problemsOf(addonEnv, optionsJson({ api_base_url: "https://a.example", children: ["", "Léa"] })),
    ).toEqual(["api_token: is required", "children[0]: must not be empty"]);
  });

  it("reports an unreadable or invalid options.json", () => {
    const missing = () => {
      throw Object.assign(new Error("nope"), { code: "ENOENT" });
    };
    expect(problemsOf(addonEnv, missing)).toEqual(["/data/options.json: cannot be read (ENOENT)"]);
    expect(problemsOf(addonEnv, () => "{not json")).toEqual(["/data/options.json: is not valid JSON"]);
  });
});

describe("the removal step's configuration", () => {
  const noApi = { HA_URL: "http://ha:8123", HA_TOKEN: "x" };

  it("needs no API token or address, and reads none given (it never calls the API)", () => {
    for (const config of [
      loadConfig({ ...noApi, REWARD_FACTS_REMOVE: "true" }),
      loadConfig(noApi, undefined, { removal: true }),
      loadConfig({ ...noApi, REWARD_FACTS_API_TOKEN: "revoked-and-not-even-a-token" }, undefined, {
        removal: true,
      }),
    ]) {
      expect(config.options.api_token).toBe("");
      expect(config.options.api_base_url).toBe("");
      expect(config.homeAssistant).toMatchObject({ url: "http://ha:8123" });
    }
  });

  it("still says what is wrong with the rest, one line each", () => {
    expect(
      problemsOf({ ...noApi, REWARD_FACTS_REMOVE: "true", REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "1" }),
    ).toHaveLength(1);
    // Running the bridge needs them, as before.
    expect(problemsOf(noApi).join("\n")).toMatch(/REWARD_FACTS_API_TOKEN/);
  });
});
