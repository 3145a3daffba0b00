import { describe, expect, it } from "vitest";
import type { EngineStatus } from "../../../../src/engine/sink.js";
import {
  type ChildIdentity,
  childEntities,
  lastFigures,
  statusEntity,
} from "../../../../src/ha/entities/entities.js";
import { contractNames } from "../../../../src/ha/entities/entity-names.js";
import {
  bridgeOffline,
  bridgeOnline,
  bridgeStateMessages,
  childStateMessages,
  childUnavailableMessages,
  type StateMessage,
} from "../../../../src/ha/entities/mqtt/state-messages.js";
import { en } from "../../../../src/ha/texts/en.js";
import { sampleCalmDay, sampleToday } from "../../../support/facts.js";

// What the MQTT entities read, from the states the REST mode would write: retained, so that Home
// Assistant finds the last values after a restart; the attributes without what discovery already
// gave; `None` where the state is unknown (an MQTT entity reads "unknown" as a value otherwise).
// That Home Assistant shows them as meant is proven in mqtt-publisher.test.ts.

const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const READ_AT = Date.parse("2026-11-21T16:00:00Z");
const base = `reward_facts/${lea.id}`;

/** Messages by topic, the payload parsed where it is JSON. */
function byTopic(messages: readonly StateMessage[]): Map<string, unknown> {
  return new Map(
    messages.map((m) => [
      m.topic,
      m.payload.startsWith("{") ? (JSON.parse(m.payload) as unknown) : m.payload,
    ]),
  );
}

const engine: EngineStatus = {
  state: "ok",
  requestsLastMinute: 12,
  budgetPerMinute: 28,
  demandPerMinute: 9.1,
  stretch: 1.5,
  todayStretch: 2,
  children: [{ id: lea.id, firstName: "Léa" }],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: READ_AT,
};

describe("a child's state messages", () => {
  const states = childEntities(contractNames, en, lea, sampleCalmDay, READ_AT);
  const messages = childStateMessages(lea, states);
  const topics = byTopic(messages);

  it("say she is online and read, with when, before her states", () => {
    expect(messages.slice(0, 3)).toEqual([
      { topic: `${base}/availability`, payload: "online", retain: true },
      { topic: `${base}/read_status/state`, payload: "ok", retain: true },
      {
        topic: `${base}/read_status/attributes`,
        payload: JSON.stringify({ reason: null, last_read: "2026-11-21T16:00:00+00:00" }),
        retain: true,
      },
    ]);
  });

  it("give each entity its state and its attributes, every one retained", () => {
    expect(messages).toHaveLength(3 + 2 * states.length);
    expect(messages.every((m) => m.retain)).toBe(true);
    expect(topics.get(`${base}/minutes_remaining/state`)).toBe("0");
    expect(topics.get(`${base}/session_running/state`)).toBe("off");
  });

  it("write an unknown state as None", () => {
    expect(states.find((s) => s.kind === "points")?.state).toBe("unknown");
    expect(topics.get(`${base}/points/state`)).toBe("None");
  });

  it("leave out of the attributes what discovery gives", () => {
    expect(topics.get(`${base}/minutes_remaining/attributes`)).toEqual({
      is_my_day: false,
      child_id: lea.id,
      child_name: "Léa",
      last_read: "2026-11-21T16:00:00+00:00",
    });
    const period = topics.get(`${base}/period/attributes`) as Record<string, unknown>;
    expect(period).not.toHaveProperty("options");
    expect(period).not.toHaveProperty("device_class");
  });

  it("say she was never read when there is no state, and skip a state of no entity of hers", () => {
    const status = statusEntity(contractNames, en, engine);
    expect(childStateMessages(lea, [status])).toEqual([
      { topic: `${base}/availability`, payload: "online", retain: true },
      { topic: `${base}/read_status/state`, payload: "ok", retain: true },
      {
        topic: `${base}/read_status/attributes`,
        payload: JSON.stringify({ reason: null, last_read: null }),
        retain: true,
      },
    ]);
  });
});

describe("a child who cannot be read", () => {
  it("gets the reason in words on her read status, and goes offline", () => {
    const messages = childUnavailableMessages(en, lea, "not_covered", "2026-11-21T16:00:00+00:00");
    expect(messages.map((m) => m.topic)).toEqual([
      `${base}/read_status/state`,
      `${base}/read_status/attributes`,
      `${base}/availability`,
    ]);
    const topics = byTopic(messages);
    expect(topics.get(`${base}/read_status/state`)).toBe(en.reasons.not_covered);
    expect(topics.get(`${base}/read_status/attributes`)).toEqual({
      reason: en.reasons.not_covered,
      reason_kind: "not_covered",
      last_read: "2026-11-21T16:00:00+00:00",
    });
    expect(topics.get(`${base}/availability`)).toBe("offline");
    expect(messages.every((m) => m.retain)).toBe(true);
  });

  it("keeps her last figures on her read status (an unavailable entity shows no attributes)", () => {
    const last = lastFigures(sampleToday);
    const topics = byTopic(
      childUnavailableMessages(en, lea, "api_unreachable", "2026-11-21T16:00:00+00:00", last),
    );
    expect(topics.get(`${base}/read_status/attributes`)).toMatchObject({ last_figures: last });
  });
});

describe("the bridge's state messages", () => {
  it("give the status with its diagnostics, and each diagnostic entity its figure", () => {
    const status = statusEntity(contractNames, en, engine);
    const diagnostics = { version: "0.0.0-test", children: 1 };
    const topics = byTopic(bridgeStateMessages(status, engine, diagnostics));
    expect(topics.get("reward_facts/bridge/status/state")).toBe("ok");
    const attributes = topics.get("reward_facts/bridge/status/attributes") as Record<string, unknown>;
    expect(attributes).toMatchObject({ requests_last_minute: 12, diagnostics });
    expect(attributes).not.toHaveProperty("friendly_name");
    expect(attributes).not.toHaveProperty("icon");
    expect(topics.get("reward_facts/bridge/requests_last_minute/state")).toBe("12");
    expect(topics.get("reward_facts/bridge/budget_per_minute/state")).toBe("28");
    expect(topics.get("reward_facts/bridge/interval_stretch/state")).toBe("1.5");
    expect(topics.get("reward_facts/bridge/last_error/state")).toBe("None");
  });

  it("cut the last error to a state's 255 characters", () => {
    const failing = {
      ...engine,
      state: "api_unreachable" as const,
      lastError: `ECONNRESET ${"x".repeat(400)}`,
    };
    const messages = bridgeStateMessages(statusEntity(contractNames, en, failing), failing, {});
    const lastError = messages.find((m) => m.topic === "reward_facts/bridge/last_error/state");
    expect(lastError?.payload).toBe(failing.lastError.slice(0, 255));
    expect(messages.every((m) => m.retain)).toBe(true);
  });

  it("say the bridge is online, and offline as its last will, on one retained topic", () => {
    expect(bridgeOnline).toEqual({
      topic: "reward_facts/bridge/availability",
      payload: "online",
      retain: true,
    });
    expect(bridgeOffline).toEqual({
      topic: "reward_facts/bridge/availability",
      payload: "offline",
      retain: true,
    });
  });
});
