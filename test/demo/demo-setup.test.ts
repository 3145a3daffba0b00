import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/load-config.js";
import { DemoArgsError, parseDemoArgs } from "../../src/demo/demo-args.js";
import {
  DEMO_EVENTS_INTERVAL_SECONDS,
  DEMO_TODAY_INTERVAL_SECONDS,
  demoConfig,
} from "../../src/demo/demo-config.js";
import { householdStart, todayAt } from "../../src/demo/household-clock.js";
import { cadenceFor } from "../../src/engine/cadence.js";
import { DISCOVERY_INTERVAL_MS } from "../../src/engine/listing-schedule.js";
import { RateBudget } from "../../src/engine/rate-budget.js";

describe("the demo's intervals", () => {
  it("fit its three children into the budget on cadence: no stretch, no warning on a first run", () => {
    const cadence = cadenceFor(3, {
      eventsIntervalMs: DEMO_EVENTS_INTERVAL_SECONDS * 1000,
      todayIntervalMs: DEMO_TODAY_INTERVAL_SECONDS * 1000,
      discoveryIntervalMs: DISCOVERY_INTERVAL_MS,
      budgetPerMinute: new RateBudget().perWindow,
    });
    expect(cadence.stretch).toBe(1);
  });
});

describe("parseDemoArgs", () => {
  it("defaults to 60× from 16:00, and takes both flags", () => {
    expect(parseDemoArgs([])).toEqual({ speed: 60, start: { hour: 16, minute: 0 } });
    expect(parseDemoArgs(["--speed", "30", "--start", "7:05"])).toEqual({
      speed: 30,
      start: { hour: 7, minute: 5 },
    });
  });

  it("answers --help (or -h), whatever else is given, with the usage", () => {
    expect(parseDemoArgs(["--help"])).toBe("help");
    expect(parseDemoArgs(["--speed", "30", "-h"])).toBe("help");
  });

  it.each([
    [["--speed", "0"]],
    [["--speed", "fast"]],
    [["--speed", ""]],
    [["--start", "25:00"]],
    [["--start", "16h"]],
    [["--port", "80"]],
    [["extra"]],
  ])("refuses %j", (args) => {
    expect(() => parseDemoArgs(args)).toThrow(DemoArgsError);
  });
});

describe("todayAt", () => {
  it("is today's local time in the zone, on ordinary days and on the day the clocks change", () => {
    const paris = "Europe/Paris";
    expect(
      new Date(todayAt({ hour: 16, minute: 0 }, paris, Date.parse("2026-01-15T09:00:00Z"))).toISOString(),
    ).toBe("2026-01-15T15:00:00.000Z");
    // 29 March 2026: Paris moves to +02:00 at 02:00, so 16:00 is 14:00 UTC, not 15:00.
    expect(
      new Date(todayAt({ hour: 16, minute: 0 }, paris, Date.parse("2026-03-29T08:00:00Z"))).toISOString(),
    ).toBe("2026-03-29T14:00:00.000Z");
    // 23:30 UTC is already the next day in Paris: "today" is the zone's date, not UTC's.
    expect(
      new Date(todayAt({ hour: 7, minute: 30 }, paris, Date.parse("2026-01-15T23:30:00Z"))).toISOString(),
    ).toBe("2026-01-16T06:30:00.000Z");
  });
});

describe("householdStart", () => {
  const paris = "Europe/Paris";
  const at = (utc: string) =>
    new Date(householdStart({ hour: 20, minute: 0 }, paris, Date.parse(utc))).toISOString();

  it("is today at the start time, and tomorrow in a day's last minute, before the bridge's first poll", () => {
    expect(at("2026-11-25T14:00:00Z")).toBe("2026-11-25T19:00:00.000Z");
    // 23:58:30 in Paris: a minute and a half left, the day played is today.
    expect(at("2026-11-25T22:58:30Z")).toBe("2026-11-25T19:00:00.000Z");
    // 23:59:30 in Paris: the first poll may come after midnight, so the day played is the next.
    expect(at("2026-11-25T22:59:30Z")).toBe("2026-11-26T19:00:00.000Z");
    expect(at("2026-11-25T23:00:05Z")).toBe("2026-11-26T19:00:00.000Z");
  });
});

describe("demoConfig", () => {
  const base = {
    apiBaseUrl: "http://127.0.0.1:40123/api/v1",
    apiToken: "rf_api_0123456789abcdef0123456789abcdef",
    dataDir: "/tmp/reward-facts-demo-x",
    timeZone: "Europe/Paris",
  };

  it("builds a standalone bridge on the simulator, short intervals, warnings only, nothing of the user's bridge", () => {
    const config = demoConfig({
      ...base,
      env: {
        REWARD_FACTS_DATA_DIR: "/srv/real-bridge",
        REWARD_FACTS_CHILDREN: "Someone",
        REWARD_FACTS_API_TOKEN: "rf_api_the_users_real_token_000000000",
        SUPERVISOR_TOKEN: "inside-an-add-on",
      },
    });
    expect(config.mode).toBe("standalone");
    expect(config.homeAssistant).toBeNull();
    expect(config.dataDir).toBe(base.dataDir);
    expect(config.heartbeatFile).toBe("/tmp/reward-facts-demo-x/heartbeat");
    expect(config.timeZone).toBe("Europe/Paris");
    expect(config.options).toMatchObject({
      api_token: base.apiToken,
      api_base_url: base.apiBaseUrl,
      events_interval_seconds: 13,
      today_interval_seconds: 15,
      children: [],
      log_level: "warning",
      publish: "rest",
      dashboard: true,
    });
  });

  it("publishes to Home Assistant when HA_URL and HA_TOKEN are set, and says what is wrong otherwise", () => {
    const config = demoConfig({
      ...base,
      env: {
        HA_URL: "http://homeassistant.local:8123/",
        HA_TOKEN: "long-lived",
        REWARD_FACTS_LOG_LEVEL: "debug",
      },
    });
    expect(config.homeAssistant).toEqual({
      kind: "standalone",
      url: "http://homeassistant.local:8123",
      token: "long-lived",
    });
    expect(config.options.log_level).toBe("debug");
    // Apart from the house's own: its own names, and nothing left behind when it stops.
    expect(config).toMatchObject({ entityPrefix: "reward_facts_demo", removeOnStop: true });

    let problems: readonly string[] = [];
    try {
      demoConfig({ ...base, env: { HA_URL: "http://homeassistant.local:8123" } });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toEqual([expect.stringMatching(/^HA_TOKEN: required when HA_URL is set/)]);
  });
});
