import { describe, expect, it } from "vitest";
import { bridgeRetainedTopics } from "../../../../src/ha/entities/mqtt/retained-sweep.js";

const config = (extra: Record<string, unknown>) => JSON.stringify({ name: "x", state_topic: "t", ...extra });

describe("the retained messages the removal clears", () => {
  it("takes the bridge's configs (by node and origin or unique id) and everything under reward_facts/", () => {
    const retained = new Map([
      [
        "homeassistant/sensor/reward_facts_bridge/status/config",
        config({ unique_id: "reward_facts_bridge_status" }),
      ],
      [
        "homeassistant/device_automation/reward_facts_c1/trigger_x/config",
        config({ origin: { name: "reward-facts-bridge" } }),
      ],
      [
        "homeassistant/sensor/reward_facts_gone/points/config",
        config({ unique_id: "reward_facts_gone_points" }),
      ],
      // Another integration's node that happens to share the prefix, with neither mark: left alone.
      ["homeassistant/sensor/reward_facts_lookalike/x/config", config({ unique_id: "other_x" })],
      ["homeassistant/sensor/kitchen/temp/config", config({ unique_id: "kitchen_temp" })],
      ["homeassistant/sensor/reward_facts_c1/broken/config", "not json"],
      ["homeassistant/status", "online"],
      ["reward_facts/c1/points/state", "4"],
      ["reward_facts/bridge/availability", "offline"],
      ["reward_facts/c1/empty/state", ""],
      ["zigbee2mqtt/bridge/state", "online"],
    ]);
    expect(bridgeRetainedTopics(retained)).toEqual({
      discovery: [
        "homeassistant/device_automation/reward_facts_c1/trigger_x/config",
        "homeassistant/sensor/reward_facts_bridge/status/config",
        "homeassistant/sensor/reward_facts_gone/points/config",
      ],
      states: ["reward_facts/bridge/availability", "reward_facts/c1/points/state"],
    });
  });
});
