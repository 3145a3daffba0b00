import { describe, expect, it } from "vitest";
import { apiEventTypes } from "../../../../src/api/schemas.js";
import { derivedFactTypes } from "../../../../src/engine/derived-facts.js";
import type { ChildIdentity } from "../../../../src/ha/entities/entities.js";
import { contractNames } from "../../../../src/ha/entities/entity-names.js";
import {
  childDiscovery,
  clearChildDiscovery,
  type DiscoveryMessage,
} from "../../../../src/ha/entities/mqtt/discovery.js";
import { en } from "../../../../src/ha/texts/en.js";

// What a child's discovery messages ask of Home Assistant, message by message (pure). That Home
// Assistant makes of them what is meant is proven in mqtt-publisher.test.ts and parent-facts.test.ts.

const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const node = `reward_facts_${lea.id}`;
const messages = childDiscovery(lea, {
  haVersion: "2026.11.0",
  bridgeVersion: "0.0.0-test",
  names: contractNames,
  texts: en,
});

function config(component: string, key: string): Record<string, unknown> | undefined {
  const found = messages.find(
    (m: DiscoveryMessage) => m.topic === `homeassistant/${component}/${node}/${key}/config`,
  );
  return found?.payload ?? undefined;
}

describe("a child's MQTT discovery", () => {
  it.each([
    ["read_now", "Read now", "config"],
    ["test_fact", "Send a test fact", "diagnostic"],
  ])(
    "offers the button %s, pressed on its own topic, available as her figures are",
    (key, name, category) => {
      expect(config("button", key)).toMatchObject({
        unique_id: `${node}_${key}`,
        default_entity_id: `button.reward_facts_lea_${key}`,
        name,
        entity_category: category,
        command_topic: `reward_facts/${lea.id}/${key}/press`,
        payload_press: "PRESS",
        availability: [
          { topic: "reward_facts/bridge/availability" },
          { topic: `reward_facts/${lea.id}/availability` },
        ],
        availability_mode: "all",
        device: { identifiers: [node] },
      });
    },
  );

  it("lists every type of fact, the journal's and the derived, on her event entity", () => {
    expect(config("event", "journal")?.event_types).toEqual([...apiEventTypes, ...derivedFactTypes]);
  });

  it.each([...apiEventTypes, ...derivedFactTypes])("offers a device trigger for %s", (type) => {
    expect(config("device_automation", `trigger_${type}`)).toMatchObject({
      automation_type: "trigger",
      type,
      subtype: "fact",
      topic: `reward_facts/${lea.id}/trigger/${type}`,
      device: { identifiers: [node] },
    });
  });

  it("sums the minutes consumed and the behaviors validated in statistics; points and unlocked minutes stay measurements", () => {
    expect(config("sensor", "minutes_consumed")).toMatchObject({
      state_class: "total_increasing",
      device_class: "duration",
      unit_of_measurement: "min",
    });
    expect(config("sensor", "behaviors")?.state_class).toBe("total_increasing");
    expect(config("sensor", "minutes_unlocked")?.state_class).toBe("measurement");
    expect(config("sensor", "points")?.state_class).toBe("measurement");
  });

  it("makes screen time allowed a binary sensor of her device, in the contract's id", () => {
    expect(config("binary_sensor", "screen_time_allowed")).toMatchObject({
      unique_id: `${node}_screen_time_allowed`,
      default_entity_id: "binary_sensor.reward_facts_lea_screen_time_allowed",
      name: "Screen time allowed",
      payload_on: "on",
      payload_off: "off",
      state_topic: `reward_facts/${lea.id}/screen_time_allowed/state`,
    });
  });
});

describe("clearing a child's MQTT discovery", () => {
  it("empties every topic her discovery published, and no other: her device and entities go", () => {
    const cleared = clearChildDiscovery(lea, {
      haVersion: "2026.11.0",
      bridgeVersion: "0.0.0-test",
      names: contractNames,
      texts: en,
    });
    expect(cleared.map((m) => m.topic)).toEqual(messages.map((m) => m.topic));
    expect(cleared.every((m) => m.payload === null)).toBe(true);
  });
});
