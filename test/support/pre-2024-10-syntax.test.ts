import { describe, expect, it } from "vitest";
import { Input, parseHaYaml, stringifyHaYaml } from "./blueprint-yaml.js";
import { readsOnlyPre2024_10Syntax, toPre2024_10Syntax } from "./pre-2024-10-syntax.js";

// The translation DOCS.md tells users of releases before 2024.10, which the tests apply before
// loading the users' YAML into such a release: it must be exactly that, and nothing more.

describe("the pre-2024.10 spelling", () => {
  it("turns DOCS.md's TV example into the syntax users of older releases wrote", () => {
    const current = parseHaYaml(`
alias: TV off
triggers:
  - trigger: time
    at: sensor.reward_facts_lea_session_ends_at
conditions:
  - condition: state
    entity_id: binary_sensor.reward_facts_lea_my_day
    state: "on"
actions:
  - action: media_player.turn_off
    target: {entity_id: media_player.living_room_tv}
`);
    expect(toPre2024_10Syntax(current)).toEqual({
      alias: "TV off",
      trigger: [{ platform: "time", at: "sensor.reward_facts_lea_session_ends_at" }],
      condition: [{ condition: "state", entity_id: "binary_sensor.reward_facts_lea_my_day", state: "on" }],
      action: [{ service: "media_player.turn_off", target: { entity_id: "media_player.living_room_tv" } }],
    });
  });

  it("reaches nested actions and waits, keeps choose's own keys, inputs and selectors", () => {
    const blueprint = parseHaYaml(`
blueprint:
  name: x
  domain: automation
  homeassistant: {min_version: "2024.10.0"}
  input:
    todo:
      default: [{action: persistent_notification.create, data: {message: hi}}]
      selector: {action: {}}
triggers: [{trigger: state, entity_id: !input sensor}]
actions:
  - choose:
      - conditions: [{condition: trigger, id: a}]
        sequence: [{action: light.turn_on, target: !input lamp}]
    default:
      - wait_for_trigger: [{trigger: event, event_type: done}]
      - if: [{condition: state, entity_id: light.x, state: "on"}]
        then: [{action: light.turn_off}]
`);
    // As YAML: an object literal with a `then` key would read as a promise.
    expect(toPre2024_10Syntax(blueprint)).toEqual(
      parseHaYaml(`
blueprint:
  name: x
  domain: automation
  input:
    todo:
      default: [{service: persistent_notification.create, data: {message: hi}}]
      selector: {action: {}}
trigger: [{platform: state, entity_id: !input sensor}]
action:
  - choose:
      - conditions: [{condition: trigger, id: a}]
        sequence: [{service: light.turn_on, target: !input lamp}]
    default:
      - wait_for_trigger: [{platform: event, event_type: done}]
      - if: [{condition: state, entity_id: light.x, state: "on"}]
        then: [{service: light.turn_off}]
`),
    );
  });

  it("writes inputs back as !input tags, and on as a string", () => {
    const text = stringifyHaYaml(
      toPre2024_10Syntax({ conditions: [{ state: "on", entity_id: new Input("x") }] }),
    );
    expect(text).toContain("entity_id: !input x");
    expect(text).toContain('state: "on"');
  });

  it("is for releases before 2024.10 only", () => {
    expect(["2024.3.3", "2024.9.3", "2023.12.0"].map(readsOnlyPre2024_10Syntax)).toEqual([true, true, true]);
    expect(["2024.10.0", "2025.1.0", "2026.11.0"].map(readsOnlyPre2024_10Syntax)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
