import { describe, expect, it } from "vitest";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";
import {
  isBridgeHelper,
  isBridgeMqttDevice,
  isBridgeMqttEntity,
  isBridgeNotification,
  isBridgeState,
  removalSummary,
} from "../../../src/ha/removal/removal-plan.js";

const demo = [new EntityNames("reward_facts_demo")];

describe("what the removal takes as the bridge's", () => {
  it.each([
    ["sensor.reward_facts_status", true],
    ["sensor.reward_facts_requests_last_minute", true],
    ["sensor.reward_facts_lea_minutes_remaining", true],
    ["binary_sensor.reward_facts_old_child_2_session_running", true],
    ["sensor.reward_facts_demo_lea_points", false],
    ["sensor.reward_facts_demo_status", false],
    ["binary_sensor.reward_facts_lea_minutes_remaining", false],
    ["sensor.reward_facts_lea_favourite_colour", false],
    ["sensor.reward_facts_lea_latest_facts", true],
    ["sensor.reward_facts_demo_lea_latest_facts", false],
    ["sensor.reward_facts__latest_facts", false],
    ["sensor.reward_facts_lea_screen_time_days", true],
    ["sensor.kitchen_temperature", false],
  ])("state %s: %s", (entityId, ours) => {
    expect(isBridgeState(entityId, contractNames, demo)).toBe(ours);
  });

  it.each([
    ["reward_facts_delivery_c_123", true],
    ["reward_facts_bridge_lease", true],
    ["reward_facts_demo_delivery_c_123", false],
    ["reward_facts_delivery", false],
    ["my_own_text", false],
  ])("helper %s: %s", (id, ours) => {
    expect(isBridgeHelper(id, contractNames)).toBe(ours);
  });

  it("knows its notifications and no other", () => {
    expect(
      ["reward_facts_token", "reward_facts_mqtt", "reward_facts_another_bridge"].every(isBridgeNotification),
    ).toBe(true);
    expect(isBridgeNotification("reward_facts_demo_token")).toBe(false);
  });

  it("takes MQTT devices and entities by their node's prefix, of the mqtt integration only", () => {
    expect(
      isBridgeMqttEntity({ entity_id: "sensor.x", platform: "mqtt", unique_id: "reward_facts_c1_points" }),
    ).toBe(true);
    expect(
      isBridgeMqttEntity({ entity_id: "sensor.x", platform: "template", unique_id: "reward_facts_c1" }),
    ).toBe(false);
    expect(isBridgeMqttEntity({ entity_id: "sensor.x", platform: "mqtt", unique_id: null })).toBe(false);
    expect(
      isBridgeMqttDevice({ id: "d", identifiers: [["mqtt", "reward_facts_bridge"]], config_entries: [] }),
    ).toBe(true);
    expect(
      isBridgeMqttDevice({ id: "d", identifiers: [["zha", "reward_facts_x"]], config_entries: [] }),
    ).toBe(false);
  });

  it("sums up every kind in one line, and what failed", () => {
    const counts = {
      discovery_configs: 60,
      devices: 3,
      entities: 48,
      state_topics: 65,
      states: 0,
      helpers: 2,
      labels: 2,
      blueprints: 7,
      assistant_items: 2,
      dashboards: 1,
      notifications: 0,
    };
    expect(removalSummary({ counts, failed: [] })).toBe(
      "removed from Home Assistant: 60 retained MQTT discovery configs, 3 devices, 48 registry entities, " +
        "65 retained MQTT state messages, 0 states written through the REST API, 2 input_text helpers, " +
        "2 labels and categories, 7 blueprints, 2 Assist automation and assistants' script, 1 dashboards, 0 notifications",
    );
    expect(removalSummary({ counts, failed: ["helpers"] })).toMatch(
      /; NOT removed \(see the warnings above\): input_text helpers$/,
    );
  });
});
