// What the rest of the bridge knows of Home Assistant: a sink to publish to, and the names the
// contract fixes. The app wires it without knowing how it talks to Home Assistant.
import type { Sink } from "../engine/sink.js";
import type { Logger } from "../log/logger.js";
import { HaSink } from "./ha-sink.js";

export { EVENT_TYPE } from "./event-data.js";
export { TOKEN_NOTIFICATION_ID } from "./token-notification.js";

export interface HomeAssistantTargetOptions {
  url: string;
  token: string;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
  logger: Logger;
}

/** The sink that publishes to Home Assistant: entities, the bus event, the token notification. */
export function homeAssistantSink(options: HomeAssistantTargetOptions): Sink {
  return new HaSink(options);
}
