import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { BRIDGE_VERSION } from "../../src/version.js";
import { OLDEST_HOME_ASSISTANT_VERSION, releaseOf } from "../lab/home-assistant-versions.js";
import {
  DEFAULTS,
  DEPRECATED_ARCHS,
  IMAGE,
  KNOWN_KEYS,
  manifestProblems,
  OBSOLETE_KEYS,
  packageVersion,
  parseOptionType,
  REQUIRED_KEYS,
  readManifest,
  SLUG,
  SUPPORTED_ARCHS,
  validateLikeSupervisor,
} from "./supervisor-rules.js";

const manifest = readManifest();

describe("config.yaml against the Supervisor's rules", () => {
  it("has every required key, as a non-empty value", () => {
    for (const key of REQUIRED_KEYS) expect(manifest[key], key).toBeTruthy();
    for (const key of ["name", "slug", "description"]) expect(typeof manifest[key], key).toBe("string");
  });

  it("has no key the Supervisor would drop without a word", () => {
    expect(Object.keys(manifest).filter((key) => !KNOWN_KEYS.has(key))).toEqual([]);
  });

  it("has the slug the entity ids and the store are named after", () => {
    expect(manifest.slug).toMatch(SLUG);
    expect(manifest.slug).toBe("reward_facts");
  });

  it("supports current architectures only", () => {
    const arch = manifest.arch as unknown[];
    expect(Array.isArray(arch) && arch.length > 0).toBe(true);
    expect(new Set(arch).size).toBe(arch.length);
    for (const a of arch) {
      expect(SUPPORTED_ARCHS, String(a)).toContain(a);
      expect(DEPRECATED_ARCHS).not.toContain(a);
    }
  });

  it("carries the package's version, as a string (a YAML number would lose 0.10 → 0.1)", () => {
    expect(typeof manifest.version).toBe("string");
    expect(manifest.version).toBe(packageVersion());
    // What the bridge says of itself (the MQTT devices' software version).
    expect(BRIDGE_VERSION).toBe(packageVersion());
  });

  it("names one image for every architecture (a manifest list), without a tag", () => {
    const image = manifest.image as string;
    expect(typeof image).toBe("string");
    expect(image).toBe(image.toLowerCase());
    // The release publishes a manifest list under one name (workflows.test.ts), as the current
    // builder and Home Assistant's apps example do: no per-architecture name to fill in.
    expect(image).not.toContain("{arch}");
    expect(image).toMatch(IMAGE);
    expect(image.slice(image.lastIndexOf("/"))).not.toMatch(/[:@]/);
  });

  it("spells out no key at its default value", () => {
    const atDefault = Object.entries(manifest).filter(
      ([key, value]) => key in DEFAULTS && isDeepStrictEqual(value, DEFAULTS[key]),
    );
    expect(atDefault.map(([key]) => key)).toEqual([]);
  });

  it("uses no obsolete key, no port and no host network", () => {
    for (const key of [...OBSOLETE_KEYS, "ports", "ports_description", "webui", "host_network", "ingress"])
      expect(manifest, key).not.toHaveProperty(key);
  });

  it(`requires the oldest Home Assistant the suites run on (${OLDEST_HOME_ASSISTANT_VERSION}), as a version string`, () => {
    // A YAML number would be coerced (2024.10 → "2024.1"); a release the tests never ran on is a guess.
    expect(manifest.homeassistant).toBe(releaseOf(OLDEST_HOME_ASSISTANT_VERSION));
  });

  it("asks for the Home Assistant API it publishes through", () => {
    expect(manifest.homeassistant_api).toBe(true);
  });

  it("writes every option type in the Supervisor's grammar", () => {
    for (const [key, value] of Object.entries(manifest.schema))
      expect(parseOptionType(value), key).toBeDefined();
  });

  it("shows every required option in the form, and only schema options", () => {
    for (const [key, value] of Object.entries(manifest.schema)) {
      if (!parseOptionType(value)?.optional) expect(manifest.options, key).toHaveProperty(key);
    }
    for (const key of Object.keys(manifest.options)) expect(manifest.schema, key).toHaveProperty(key);
  });

  it("gives no optional option a null default, which the Supervisor would refuse as missing", () => {
    for (const [key, value] of Object.entries(manifest.options)) {
      if (parseOptionType(manifest.schema[key])?.optional) expect(value, key).not.toBeNull();
    }
  });

  it("refuses to start until the required options are filled in, naming the first one", () => {
    const result = validateLikeSupervisor(manifest.schema, manifest.options);
    expect(result).toEqual({ error: "Missing required option 'api_token'" });
  });

  it("accepts its own defaults once the required options are filled in", () => {
    const filled = { ...manifest.options, api_token: "rf_api_x", api_base_url: "https://api.example.com/v1" };
    expect(validateLikeSupervisor(manifest.schema, filled)).toHaveProperty("options");
  });
});

describe("the encoded rules themselves", () => {
  it.each([
    ["bool", true],
    ["str", true],
    ["str(1,)", true],
    ["password?", true],
    ["int(10,3600)?", true],
    ["float(0.5,2)", true],
    ["match(^a+$)", true],
    ["list(a|b|c)?", true],
    ["device(subsystem=tty)", true],
    [["str?"], true],
    ["string", false],
    ["int(10-20)", false],
    ["list()", false],
    [["str", "int"], false],
    [[["str"]], false],
    [7, false],
  ])("%j is %s in the option grammar", (value, valid) => {
    expect(parseOptionType(value) !== undefined).toBe(valid);
  });

  it("reads ranges, optionality and list values", () => {
    expect(parseOptionType("int(10,3600)?")).toEqual({
      base: "int",
      optional: true,
      min: 10,
      max: 3600,
      multiple: false,
    });
    expect(parseOptionType("list(a|b)")).toEqual({
      base: "list",
      optional: false,
      values: ["a", "b"],
      multiple: false,
    });
    expect(parseOptionType(["str?"])).toEqual({ base: "str", optional: true, multiple: true });
  });

  it("refuses a url that is none and a breaking version YAML would read as a number", () => {
    expect(manifestProblems({ ...manifest, url: "github.com/x", breaking_versions: [0.3, "0.3.0"] })).toEqual(
      ["url: github.com/x is not a URL", "breaking_versions: 0.3 is not a version string"],
    );
    expect(manifestProblems({ ...manifest, breaking_versions: "0.3.0" })).toEqual([
      "breaking_versions: must be a list",
    ]);
    expect(manifestProblems(manifest)).toEqual([]);
  });

  it("tells a tagged image from an untagged one", () => {
    expect("ghcr.io/x/y").toMatch(IMAGE);
    expect("ghcr.io/x/y-{arch}").toMatch(IMAGE);
    expect("ghcr.io/x/y-{arch}:1.0").not.toMatch(IMAGE);
    expect("y").not.toMatch(IMAGE);
  });
});
