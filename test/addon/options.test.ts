import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/load-config.js";
import { optionsSchema } from "../../src/config/options-schema.js";
import { languages } from "../../src/ha/texts/texts.js";
import {
  type OptionType,
  parseOptionType,
  readManifest,
  readYaml,
  repoRoot,
  validateLikeSupervisor,
} from "./supervisor-rules.js";

// config.yaml's options and the bridge's zod schema describe the same thing twice (the Supervisor
// cannot read zod); these tests keep the two in step, reading the zod side by behaviour.

const manifest = readManifest();
/** The options form in each language: `en.yaml`, `fr.yaml`… */
const translationFiles = readdirSync(join(repoRoot, "addon/translations")).sort();
const optionNames = Object.keys(optionsSchema.shape);
const required = { api_token: "rf_api_test_0123456789abcdef", api_base_url: "https://api.example.com/v1" };

const typeOf = (key: string) => parseOptionType(manifest.schema[key]) as OptionType;
const accepts = (key: string, value: unknown) => {
  const options: Record<string, unknown> = { ...required, [key]: value };
  if (value === undefined) delete options[key];
  return optionsSchema.safeParse(options).success;
};

describe("config.yaml's options and the bridge's options schema", () => {
  it("declare the same options", () => {
    expect(Object.keys(manifest.schema).sort()).toEqual([...optionNames].sort());
  });

  it.each(optionNames)("agree on whether %s may be left out", (key) => {
    expect(typeOf(key).optional).toBe(accepts(key, undefined));
  });

  it.each(optionNames)("agree on the type of %s", (key) => {
    const type = typeOf(key);
    switch (type.base) {
      case "password":
        expect(accepts(key, "rf_api_other")).toBe(true);
        break;
      case "url":
        expect(accepts(key, "https://api2.example.com")).toBe(true);
        expect(accepts(key, "api2.example.com")).toBe(false);
        break;
      case "int": {
        // A list of them (`- int(…)`) takes each value in a list.
        const value = (n: number) => (type.multiple ? [n] : n);
        expect(type.min).toBeDefined();
        expect(type.max).toBeDefined();
        expect(accepts(key, value(type.min as number))).toBe(true);
        expect(accepts(key, value(type.max as number))).toBe(true);
        expect(accepts(key, value((type.min as number) - 1))).toBe(false);
        expect(accepts(key, value((type.max as number) + 1))).toBe(false);
        expect(accepts(key, value((type.min as number) + 0.5))).toBe(false);
        break;
      }
      case "list":
        // The values of the bridge's own enum, in its order.
        expect(type.values).toEqual(
          optionsSchema.shape[key as "log_level" | "publish"].def.innerType.options,
        );
        for (const value of type.values ?? []) expect(accepts(key, value)).toBe(true);
        expect(accepts(key, "loud")).toBe(false);
        break;
      case "bool":
        expect(accepts(key, true)).toBe(true);
        expect(accepts(key, false)).toBe(true);
        expect(accepts(key, "yes")).toBe(false);
        break;
      case "str":
        expect(type.multiple).toBe(true);
        expect(accepts(key, ["Léa", "7f3c2a10-0000-4000-8000-000000000001"])).toBe(true);
        expect(accepts(key, "Léa")).toBe(false);
        break;
      default:
        throw new Error(`${key}: no agreement rule for ${type.base}`);
    }
  });

  it("show the bridge's own defaults in the form", () => {
    const defaults = optionsSchema.parse(required) as Record<string, unknown>;
    for (const [key, value] of Object.entries(manifest.options)) {
      if (value === null) continue;
      expect(value, key).toEqual(defaults[key]);
    }
    for (const [key, value] of Object.entries(defaults)) {
      if (!(key in required))
        expect(manifest.options, `${key}'s default ${String(value)}`).toHaveProperty(key);
    }
  });
});

describe.each(translationFiles)("the options form, %s", (file) => {
  const translations = readYaml(`addon/translations/${file}`) as {
    configuration?: Record<string, { name?: unknown; description?: unknown }>;
  };

  it.each(optionNames)("names and describes %s", (key) => {
    const entry = translations.configuration?.[key];
    expect(typeof entry?.name).toBe("string");
    expect(typeof entry?.description).toBe("string");
    expect(String(entry?.description).length).toBeGreaterThan(10);
  });

  it("translates no option that does not exist", () => {
    expect(Object.keys(translations.configuration ?? {}).sort()).toEqual([...optionNames].sort());
  });
});

it("has an options form in each language the bridge speaks", () => {
  expect(translationFiles.map((file) => file.replace(/\.yaml$/, "")).sort()).toEqual(
    Object.keys(languages).sort(),
  );
});

describe("options.json as the Supervisor writes it", () => {
  const addonEnv = { SUPERVISOR_TOKEN: "supervisor-token", REWARD_FACTS_OPTIONS_FILE: "/data/options.json" };
  const load = (options: Record<string, unknown>) => {
    const written = validateLikeSupervisor(manifest.schema, options);
    if ("error" in written) throw new Error(written.error);
    return loadConfig(addonEnv, (path) => {
      expect(path).toBe("/data/options.json");
      return JSON.stringify(written.options);
    });
  };

  it("loads from the form's defaults plus a token and an address", () => {
    const config = load({ ...manifest.options, ...required });
    expect(config.mode).toBe("addon");
    expect(config.options).toEqual(optionsSchema.parse(required));
  });

  it("loads with every optional option filled in", () => {
    const config = load({
      ...manifest.options,
      ...required,
      api_legacy_base_url: "https://legacy.example.com",
      events_interval_seconds: "45",
      children: ["Léa"],
      log_level: "debug",
    });
    expect(config.options).toMatchObject({
      api_legacy_base_url: "https://legacy.example.com",
      events_interval_seconds: 45,
      children: ["Léa"],
      log_level: "debug",
    });
  });

  it("gets past the Supervisor with an empty token, then the bridge names the problem", () => {
    let problems: readonly string[] = [];
    try {
      load({ ...manifest.options, ...required, api_token: "" });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      problems = (error as ConfigError).problems;
    }
    expect(problems).toEqual(["api_token: is empty"]);
  });
});
