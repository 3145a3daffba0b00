import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiEventTypes } from "../../src/api/schemas.js";
import { EVENT_TYPE } from "../../src/ha/event-data.js";
import { Input, parseHaYaml } from "../support/blueprint-yaml.js";
import { readText, repoRoot } from "./supervisor-rules.js";

const folder = "addon/blueprints/automation/reward_facts";
const files = readdirSync(join(repoRoot, folder)).filter((file) => file.endsWith(".yaml"));

interface Blueprint {
  blueprint: {
    name: string;
    description: string;
    domain: string;
    homeassistant?: { min_version?: string };
    input: Record<
      string,
      { name?: string; description?: string; selector?: Record<string, unknown>; default?: unknown }
    >;
  };
  triggers?: unknown;
  conditions?: unknown;
  actions?: unknown;
  [key: string]: unknown;
}

const load = (file: string) => parseHaYaml(readText(`${folder}/${file}`)) as Blueprint;

/** Every value below `node`, objects and arrays included, with the key it sits under. */
function* walk(node: unknown, key = ""): Generator<[string, unknown]> {
  yield [key, node];
  if (Array.isArray(node)) for (const item of node) yield* walk(item, key);
  else if (node && typeof node === "object" && !(node instanceof Input))
    for (const [k, v] of Object.entries(node)) yield* walk(v, k);
}

const asList = (value: unknown) => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

describe("the blueprints", () => {
  it("are the four the add-on offers", () => {
    expect(files.sort()).toEqual([
      "celebrate.yaml",
      "session_end_turn_off.yaml",
      "session_ending_warning.yaml",
      "traffic_light.yaml",
    ]);
  });

  describe.each(files)("%s", (file) => {
    const bp = load(file);
    const inputs = bp.blueprint.input;
    const used = [...walk(bp)].flatMap(([, value]) => (value instanceof Input ? [value.name] : []));

    it("is an automation blueprint with a name and a description", () => {
      expect(bp.blueprint.domain).toBe("automation");
      expect(bp.blueprint.name).toMatch(/^Reward Facts/);
      expect(bp.blueprint.description.length).toBeGreaterThan(40);
    });

    it("uses each input it declares, and declares each it uses", () => {
      expect(new Set(used)).toEqual(new Set(Object.keys(inputs)));
    });

    it("writes the syntax of 2024.10 and later (triggers/trigger/action), and requires 2024.10", () => {
      for (const key of ["triggers", "conditions", "actions"]) expect(bp, key).toHaveProperty(key);
      for (const key of ["trigger", "condition", "action"]) expect(bp, key).not.toHaveProperty(key);
      for (const trigger of asList(bp.triggers)) {
        expect(trigger).toHaveProperty("trigger");
        expect(trigger).not.toHaveProperty("platform");
      }
      expect([...walk(bp)].filter(([key]) => key === "service" || key === "platform")).toEqual([]);
      expect(bp.blueprint.homeassistant?.min_version).toBe("2024.10.0");
    });

    it("does nothing unless the child's my_day sensor is on", () => {
      const myDay = Object.entries(inputs).find(([, input]) => {
        const filters = asList((input.selector?.entity as { filter?: unknown } | undefined)?.filter);
        return filters.some((f) => (f as { domain?: unknown }).domain === "binary_sensor");
      });
      expect(myDay?.[0]).toBe("my_day");
      expect(String(inputs.my_day?.description)).toContain("binary_sensor.reward_facts_<child>_my_day");
      expect(asList(bp.conditions)).toContainEqual({
        condition: "state",
        entity_id: new Input("my_day"),
        state: "on",
      });
    });
  });

  it("turns devices off with a time trigger at the session's end", () => {
    const bp = load("session_end_turn_off.yaml");
    expect(bp.triggers).toEqual([{ trigger: "time", at: new Input("session_ends_at") }]);
    expect(JSON.stringify(bp.blueprint.input.session_ends_at?.selector)).toContain("timestamp");
  });

  it("celebrates from the bridge's own event, for kinds of facts it sends", () => {
    const bp = load("celebrate.yaml");
    expect(bp.triggers).toEqual([{ trigger: "event", event_type: EVENT_TYPE }]);
    const kinds = bp.blueprint.input.kinds;
    const options =
      (kinds?.selector?.select as { options?: Array<{ value: string }> } | undefined)?.options ?? [];
    expect(options.map((o) => o.value)).toEqual(["behavior_validated", "cheer_sent"]);
    for (const kind of options) expect(apiEventTypes).toContain(kind.value);
  });

  it("colours the lamp green, orange and red", () => {
    const colours = [...walk(load("traffic_light.yaml").actions)]
      .filter(([key]) => key === "color_name")
      .map(([, value]) => value);
    expect(colours.sort()).toEqual(["green", "orange", "red"]);
  });
});
