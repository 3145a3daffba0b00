// What the rest of the bridge knows of Home Assistant: a sink to publish to, and the names the
// contract fixes. The app wires it without knowing how it talks to Home Assistant.
import type { Sink } from "../engine/sink.js";
import type { Logger } from "../log/logger.js";
import { BRIDGE_VERSION } from "../version.js";
import { HaSink } from "./ha-sink.js";
import type { BrokerAddress } from "./mqtt/mqtt-link.js";

export { EVENT_TYPE } from "./event-data.js";
export type { BrokerAddress } from "./mqtt/mqtt-link.js";
export { BROKER_NOTIFICATION_ID, TOKEN_NOTIFICATION_ID } from "./notifications.js";

export interface HomeAssistantTargetOptions {
  url: string;
  token: string;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
  logger: Logger;
  /** Entities through MQTT discovery on this broker; REST-made states when null. */
  broker: BrokerAddress | null;
}

/**
 * The sink that publishes to Home Assistant: entities, the bus event, the token notification.
 * The MQTT client is loaded only when entities go through MQTT (it is the heaviest module).
 */
export async function homeAssistantSink(options: HomeAssistantTargetOptions): Promise<Sink> {
  const { broker, ...rest } = options;
  if (!broker) return new HaSink(rest);
  const { mqttEntities } = await import("./mqtt/mqtt-entities.js");
  return new HaSink({ ...rest, entities: mqttEntities({ broker, bridgeVersion: BRIDGE_VERSION }) });
}
