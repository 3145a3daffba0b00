import { describe, expect, it } from "vitest";
import { bridgeHelp, defaultText } from "../../src/config/help.js";
import { loadConfig } from "../../src/config/load-config.js";
import { optionTable } from "../../src/config/option-table.js";
import { optionsSchema } from "../../src/config/options-schema.js";
import * as z from "../../src/zod.js";

// `npm start -- --help` is printed from the loader's own tables: every option and every variable
// the loader reads appears in it, with the schema's defaults.

const help = bridgeHelp();

/** The names of the environment variables loadConfig reads from `env`. */
function variablesRead(env: Record<string, string>): Set<string> {
  const read = new Set<string>();
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === "string") read.add(name);
      return Reflect.get(target, name);
    },
  });
  try {
    loadConfig(watched, () => JSON.stringify({ api_token: "rf_api_x", api_base_url: "https://api.example" }));
  } catch {
    // Which problems it finds does not matter here, only what it looked at.
  }
  return read;
}

describe("the bridge's --help", () => {
  it.each(Object.keys(optionsSchema.shape))("shows the option %s with its environment variable", (key) => {
    const row = optionTable[key as keyof typeof optionTable];
    expect(help).toContain(`${row.env}  (add-on option ${key}; `);
  });

  it("shows every variable the loader reads, standalone and in the add-on (tests' own excepted)", () => {
    const standalone = variablesRead({
      HA_URL: "http://ha.local:8123",
      HA_TOKEN: "t",
      MQTT_URL: "mqtt://broker",
      MQTT_USERNAME: "u",
      MQTT_PASSWORD: "p",
      REWARD_FACTS_PUBLISH: "mqtt",
    });
    const addon = variablesRead({ SUPERVISOR_TOKEN: "s" });
    const read = [...new Set([...standalone, ...addon])].filter((name) => /^[A-Z][A-Z0-9_]*$/.test(name));
    expect(read.length).toBeGreaterThan(15);
    const missing = read.filter(
      (name) => !name.startsWith("REWARD_FACTS_TEST_") && !help.includes(`  ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("gives the schema's defaults", () => {
    expect(defaultText("api_token")).toBe("required");
    expect(defaultText("api_legacy_base_url")).toBe("none");
    expect(defaultText("events_interval_seconds")).toBe("30");
    expect(defaultText("minutes_low_thresholds")).toBe("10,5");
    expect(help).toContain("REWARD_FACTS_LOG_LEVEL  (add-on option log_level; default info)");
    expect(help).toMatch(/trace\|debug\|info\|notice\|warning\|error\|fatal/);
  });

  it.each(
    Object.entries(optionTable).flatMap(([key, row]) => {
      const range = /\((\d+) to (\d+)( each)?\)/.exec(row.help);
      return range ? [[key, Number(range[1]), Number(range[2]), Boolean(range[3])] as const] : [];
    }),
  )("states the range of %s as the schema checks it (%i to %i)", (key, min, max, each) => {
    const schema = optionsSchema.shape[key as keyof typeof optionsSchema.shape] as z.ZodMiniType;
    const value = (n: number) => (each ? [n] : n);
    expect(z.safeParse(schema, value(min)).success).toBe(true);
    expect(z.safeParse(schema, value(max)).success).toBe(true);
    expect(z.safeParse(schema, value(min - 1)).success).toBe(false);
    expect(z.safeParse(schema, value(max + 1)).success).toBe(false);
  });
});
