import type { EngineStatus, UnavailableReason } from "../../../engine/sink.js";
import type { Texts } from "../../texts/texts.js";
import type { ChildIdentity, EntityState, LastFigures } from "../entities.js";
import { READ_STATUS_KEY } from "./discovery.js";
import { BRIDGE_AVAILABILITY, bridgeTopics, childTopics } from "./topics.js";

// What the bridge publishes for the MQTT entities, from the same states the REST publisher
// writes: a state topic and an attributes topic per entity, retained, so that Home Assistant
// finds the last values after a restart. Pure.

export interface StateMessage {
  topic: string;
  payload: string;
  retain: boolean;
}

/** Attributes Home Assistant takes from discovery, not from the attributes topic. */
const FROM_DISCOVERY = new Set([
  "friendly_name",
  "icon",
  "device_class",
  "unit_of_measurement",
  "state_class",
  "options",
]);

/** Home Assistant's MQTT entities read `None` as "unknown" (a sensor of any class, a binary sensor). */
function statePayload(state: string): string {
  return state === "unknown" ? "None" : state;
}

function attributesOf(state: EntityState): Record<string, unknown> {
  return Object.fromEntries(Object.entries(state.attributes).filter(([name]) => !FROM_DISCOVERY.has(name)));
}

/** A child's entities, readable: the availability, the read status, each state and its attributes. */
export function childStateMessages(child: ChildIdentity, states: readonly EntityState[]): StateMessage[] {
  const topics = childTopics(child.id);
  const messages: StateMessage[] = [
    { topic: topics.availability, payload: "online", retain: true },
    { topic: topics.state(READ_STATUS_KEY), payload: "ok", retain: true },
    {
      topic: topics.attributes(READ_STATUS_KEY),
      payload: JSON.stringify({ reason: null, last_read: states[0]?.attributes.last_read ?? null }),
      retain: true,
    },
  ];
  for (const state of states) {
    if (!state.kind) continue;
    messages.push(
      { topic: topics.state(state.kind), payload: statePayload(state.state), retain: true },
      { topic: topics.attributes(state.kind), payload: JSON.stringify(attributesOf(state)), retain: true },
    );
  }
  return messages;
}

/**
 * A child whose facts cannot be read: its entities unavailable (their last values stay in the
 * broker for when it comes back), the reason on its read-status entity.
 */
export function childUnavailableMessages(
  texts: Texts,
  child: ChildIdentity,
  reason: UnavailableReason,
  lastRead: string | null,
  last?: LastFigures,
): StateMessage[] {
  const topics = childTopics(child.id);
  const words = texts.reasons[reason];
  return [
    { topic: topics.state(READ_STATUS_KEY), payload: words, retain: true },
    {
      topic: topics.attributes(READ_STATUS_KEY),
      payload: JSON.stringify({
        reason: words,
        reason_kind: reason,
        last_read: lastRead,
        ...(last ? { last_figures: last } : {}),
      }),
      retain: true,
    },
    { topic: topics.availability, payload: "offline", retain: true },
  ];
}

/**
 * The bridge's status entity (the contract's attributes, and `diagnostics`: the bridge's redacted
 * state, which Home Assistant's diagnostics download of the device then holds) and its diagnostic
 * entities.
 */
export function bridgeStateMessages(
  status: EntityState,
  engine: EngineStatus,
  diagnostics: Record<string, unknown>,
): StateMessage[] {
  const retained = (topic: string, payload: string) => ({ topic, payload, retain: true });
  return [
    retained(bridgeTopics.state("status"), status.state),
    retained(bridgeTopics.attributes("status"), JSON.stringify({ ...attributesOf(status), diagnostics })),
    retained(bridgeTopics.state("requests_last_minute"), String(engine.requestsLastMinute)),
    retained(bridgeTopics.state("budget_per_minute"), String(engine.budgetPerMinute)),
    retained(bridgeTopics.state("interval_stretch"), String(engine.stretch)),
    retained(bridgeTopics.state("last_error"), statePayload(engine.lastError?.slice(0, 255) ?? "unknown")),
  ];
}

export const bridgeOnline: StateMessage = { topic: BRIDGE_AVAILABILITY, payload: "online", retain: true };
export const bridgeOffline: StateMessage = { topic: BRIDGE_AVAILABILITY, payload: "offline", retain: true };
