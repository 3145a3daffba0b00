import { describe, expect, it } from "vitest";
import { contractNames } from "../../../../src/ha/entities/entity-names.js";
import {
  bridgeDiscovery,
  childDiscovery,
  type DiscoveryContext,
  SUPPORT_URL,
} from "../../../../src/ha/entities/mqtt/discovery.js";
import { en } from "../../../../src/ha/texts/en.js";

// The discovery payloads as Home Assistant's quality scale asks of a device: the bridge's internals
// registered disabled, the devices linked to the add-on's page, the origin's support link. Pure;
// what Home Assistant makes of them is in mqtt-publisher.test.ts and diagnostics.test.ts.

const context: DiscoveryContext = {
  haVersion: "2026.11.0",
  bridgeVersion: "9.9.9",
  names: contractNames,
  texts: en,
};
const child = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const payloads = (messages: ReturnType<typeof bridgeDiscovery>) =>
  messages.map((message) => message.payload as Record<string, unknown>);

describe("MQTT discovery", () => {
  it("registers the bridge's internal sensors disabled, and its status (the contract's) enabled", () => {
    const byId = new Map(payloads(bridgeDiscovery(context)).map((p) => [p.unique_id, p]));
    expect(byId.get("reward_facts_bridge_status")).not.toHaveProperty("enabled_by_default");
    for (const key of ["requests_last_minute", "budget_per_minute", "interval_stretch", "last_error"]) {
      expect(byId.get(`reward_facts_bridge_${key}`), key).toMatchObject({
        enabled_by_default: false,
        entity_category: "diagnostic",
      });
    }
  });

  it("keeps every entity of a child enabled", () => {
    for (const payload of payloads(childDiscovery(child, context)))
      expect(payload, String(payload.unique_id ?? payload.type)).not.toHaveProperty("enabled_by_default");
  });

  it("gives every payload's origin the project's support link", () => {
    const all = payloads([...bridgeDiscovery(context), ...childDiscovery(child, context)]);
    for (const payload of all)
      expect(payload.origin).toEqual({
        name: "reward-facts-bridge",
        sw_version: "9.9.9",
        support_url: SUPPORT_URL,
      });
    expect(SUPPORT_URL).toBe("https://github.com/reward-facts/reward-facts-bridge");
  });

  it("links the devices to the add-on's page when there is one, and to nothing standalone", () => {
    const page = "homeassistant://hassio/addon/abc123_reward_facts/info";
    const linked = payloads([
      ...bridgeDiscovery({ ...context, configurationUrl: page }),
      ...childDiscovery(child, { ...context, configurationUrl: page }),
    ]);
    for (const payload of linked)
      expect((payload.device as Record<string, unknown>).configuration_url).toBe(page);
    const standalone = payloads([...bridgeDiscovery(context), ...childDiscovery(child, context)]);
    for (const payload of standalone) expect(payload.device).not.toHaveProperty("configuration_url");
  });
});
