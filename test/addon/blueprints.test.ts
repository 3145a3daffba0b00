import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { apiEventTypes } from "../../src/api/schemas.js";
import { derivedFactTypes } from "../../src/engine/derived-facts.js";
import { EVENT_TYPE } from "../../src/ha/delivery/event-data.js";
import { childEntityDefinitions } from "../../src/ha/entities/catalogue.js";
import { CHILD_MANUFACTURER } from "../../src/ha/entities/mqtt/discovery.js";
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

/** The syntax every blueprint is written in arrived in 2024.10. */
const SYNTAX_RELEASE = "2024.10.0";
/** Actions newer than that syntax, and the release each arrived in (its release notes). */
const newerActions: Record<string, string> = { "recorder.get_statistics": "2025.6.0" };
/** The blueprints for every child at once, which ask for no child's device. */
const forEveryChild = ["assist_answers.yaml", "weekly_digest.yaml"];
const newest = (versions: string[]) =>
  versions.reduce((a, b) => (a.localeCompare(b, "en", { numeric: true }) >= 0 ? a : b));

describe("the blueprints", () => {
  it("are the eight the add-on offers", () => {
    expect(files.sort()).toEqual([
      "assist_answers.yaml",
      "celebrate.yaml",
      "minutes_low.yaml",
      "session_ending_warning.yaml",
      "session_over.yaml",
      "traffic_light.yaml",
      "validate_in_app.yaml",
      "weekly_digest.yaml",
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

    it("writes the syntax of 2024.10 and later (triggers/trigger/action), and requires the release of its newest action", () => {
      for (const key of ["triggers", "actions"]) expect(bp, key).toHaveProperty(key);
      for (const key of ["trigger", "condition", "action"]) expect(bp, key).not.toHaveProperty(key);
      for (const trigger of asList(bp.triggers)) {
        expect(trigger).toHaveProperty("trigger");
        expect(trigger).not.toHaveProperty("platform");
      }
      expect([...walk(bp)].filter(([key]) => key === "service" || key === "platform")).toEqual([]);
      // An older release would offer it, then fail the automation at its first run.
      const called = [...walk(bp)].flatMap(([key, value]) =>
        key === "action" && typeof value === "string" && value in newerActions ? [value] : [],
      );
      const needed = newest([SYNTAX_RELEASE, ...called.map((action) => newerActions[action] as string)]);
      expect(bp.blueprint.homeassistant?.min_version).toBe(needed);
    });

    if (file === "assist_answers.yaml")
      it("answers for every child: it asks for nothing", () => {
        expect(inputs).toEqual({});
      });
    else if (forEveryChild.includes(file))
      it("is for every child the bridge publishes: it asks for no child, and finds them by their name", () => {
        expect(inputs).not.toHaveProperty("child");
        expect(Object.values(inputs).filter((input) => "device" in (input.selector ?? {}))).toEqual([]);
        expect(readText(`${folder}/${file}`)).toContain("s.attributes.child_name");
      });
    else
      it("asks for one child's device, from the bridge's children only, and finds her entities on it", () => {
        expect(inputs.child?.selector).toEqual({
          device: { filter: [{ integration: "mqtt", manufacturer: CHILD_MANUFACTURER }] },
        });
        expect(Object.values(inputs).filter((input) => "entity" in (input.selector ?? {}))).toEqual([]);
        const text = readText(`${folder}/${file}`);
        expect(text).toMatch(/device_attr\(child_device, 'identifiers'\)|device_entities\(child_device\)/);
      });
  });

  it("validate_in_app.yaml asks on the bridge's behavior_declared facts and takes it back when the behavior is settled, of the chosen child only", () => {
    const bp = load("validate_in_app.yaml");
    expect(bp.triggers).toEqual([
      { trigger: "event", id: "declared", event_type: EVENT_TYPE, event_data: { type: "behavior_declared" } },
      { trigger: "event", id: "settled", event_type: EVENT_TYPE, event_data: { type: "behavior_validated" } },
      { trigger: "event", id: "settled", event_type: EVENT_TYPE, event_data: { type: "behavior_rejected" } },
    ]);
    expect(derivedFactTypes).toEqual(expect.arrayContaining(["behavior_declared", "behavior_rejected"]));
    expect(apiEventTypes).toContain("behavior_validated");
    expect(JSON.stringify(bp.conditions)).toContain(
      "child_node == 'reward_facts_' ~ trigger.event.data.child_id",
    );
  });

  it.each([
    ["minutes_low.yaml", "minutes_low"],
    ["session_over.yaml", "session_ended"],
  ])("%s runs on the bridge's %s facts, of the chosen child only", (file, type) => {
    const bp = load(file);
    expect(bp.triggers).toEqual([{ trigger: "event", event_type: EVENT_TYPE, event_data: { type } }]);
    expect(derivedFactTypes).toContain(type);
    expect(JSON.stringify(bp.conditions)).toContain(
      "child_node == 'reward_facts_' ~ trigger.event.data.child_id",
    );
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

  it("weekly_digest.yaml runs at the chosen time on the chosen days, and reads each day's change of the summed statistics", () => {
    const bp = load("weekly_digest.yaml");
    expect(bp.triggers).toEqual([{ trigger: "time", at: new Input("time") }]);
    // The weekday as a condition: the time trigger's own weekday option is newer than 2025.6.
    expect(bp.conditions).toContainEqual({ condition: "time", weekday: new Input("weekdays") });
    const select = bp.blueprint.input.weekdays?.selector?.select as { options?: Array<{ value: string }> };
    const options = select?.options ?? [];
    expect(options.map((option) => option.value)).toEqual(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
    expect(bp.blueprint.input.weekdays?.default).toEqual(["sun"]);
    const read = asList(bp.actions).find(
      (action) => (action as { action?: string }).action === "recorder.get_statistics",
    ) as { data: Record<string, unknown>; response_variable: string };
    expect(read).toMatchObject({
      data: { period: "day", types: ["change"] },
      response_variable: "statistics",
    });
    expect(String(read.data.statistic_ids)).toMatch(/'minutes'.*'behaviors'/);
    // A change of the sums exists only for sensors the recorder sums.
    const text = readText(`${folder}/weekly_digest.yaml`);
    for (const kind of ["minutes_consumed", "behaviors"] as const) {
      expect(text).toContain(`_${kind}`);
      expect(childEntityDefinitions[kind].stateClass, kind).toBe("total_increasing");
    }
  });

  it("colours the lamp green, orange and red", () => {
    const colours = [...walk(load("traffic_light.yaml").actions)]
      .filter(([key]) => key === "color_name")
      .map(([, value]) => value);
    expect(colours.sort()).toEqual(["green", "orange", "red"]);
  });
});
