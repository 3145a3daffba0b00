import { describe, expect, it } from "vitest";
import {
  ALL_DISCOVERY_CONFIGS,
  BRIDGE_NODE,
  childKey,
  childNode,
  childNodeOfTopic,
  childTopics,
  discoveryTopic,
  pressOfTopic,
} from "../../../../src/ha/entities/mqtt/topics.js";

// A child's topics are named by her id, which the API does not promise to keep to MQTT's topic
// characters; and the bridge, subscribed to every discovery config of the house, must know its
// children's nodes from everyone else's (and from its own bridge device) to clear the gone ones.

describe("a child's topics", () => {
  it("use her id with every character a topic level or a node id cannot hold made `_`", () => {
    // `/` would split the level, `+` and `#` are wildcards, a space or a dot no node id allows.
    expect(childKey("a/b+c#d e.f")).toBe("a_b_c_d_e_f");
    expect(childKey("7f3c2a10-0000_AbC")).toBe("7f3c2a10-0000_AbC");
    expect(childNode("a/b")).toBe("reward_facts_a_b");
    expect(childTopics("a/b").trigger("screen_time_started")).toBe(
      "reward_facts/a_b/trigger/screen_time_started",
    );
  });
});

describe("the child node of a discovery config topic", () => {
  const configOf = (node: string) => discoveryTopic("sensor", node, "points");

  it("is the node of one of the bridge's children, which the subscription's pattern matches", () => {
    const topic = configOf(childNode("7f3c2a10"));
    expect(topic).toBe("homeassistant/sensor/reward_facts_7f3c2a10/points/config");
    expect(ALL_DISCOVERY_CONFIGS.split("/").length).toBe(topic.split("/").length);
    expect(childNodeOfTopic(topic)).toBe("reward_facts_7f3c2a10");
  });

  it("is none for the bridge's own device, another integration's, or a topic too short to name one", () => {
    expect(childNodeOfTopic(configOf(BRIDGE_NODE))).toBeUndefined();
    expect(childNodeOfTopic(configOf("zigbee2mqtt_0x00158d0001"))).toBeUndefined();
    expect(childNodeOfTopic("homeassistant/status")).toBeUndefined();
  });
});

describe("a press of a child's button", () => {
  it("is read from its topic, and nothing else is taken for one", () => {
    expect(pressOfTopic(childTopics("a/b").press("read_now"))).toEqual({
      childKey: "a_b",
      button: "read_now",
    });
    expect(pressOfTopic("reward_facts/lea/test_fact/press")).toEqual({
      childKey: "lea",
      button: "test_fact",
    });
    for (const other of [
      "reward_facts/lea/read_now/state",
      "reward_facts/bridge/read_now/press",
      "reward_facts/lea/read_now/press/more",
      "other/lea/read_now/press",
      "homeassistant/button/reward_facts_lea/read_now/config",
    ])
      expect(pressOfTopic(other)).toBeUndefined();
  });
});
