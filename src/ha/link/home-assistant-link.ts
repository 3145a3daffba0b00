import type { Logger } from "../../log/logger.js";
import { HomeAssistantLink } from "./connection.js";

/** Where Home Assistant is, and who the bridge is to it. */
export interface HomeAssistantAccess {
  /** Base URL of Home Assistant (http://supervisor/core in the add-on). */
  url: string;
  token: string;
  /** Standalone tokens must belong to an administrator; the Supervisor's proxy is one. */
  requireAdmin: boolean;
}

export interface LinkUse {
  logger: Logger;
  /**
   * A one-shot visit (`npm run dashboard`) gives up at once when Home Assistant is not there; the
   * bridge and its removal step wait for it, as long as their signal lets them.
   */
  giveUpAtOnce?: boolean;
  /** How often the link pings, and how long it waits for the answer (a test shortens them). */
  heartbeatMs?: number;
  pongTimeoutMs?: number;
}

/**
 * The one websocket link to Home Assistant of a run, the only place one is made: the app makes the
 * bridge's and hands it to the household lease, then the sink; the removal step and `npm run
 * dashboard` make one for their visit. Its users listen to it (LinkListener), none rebuilds it.
 */
export function homeAssistantLink(access: HomeAssistantAccess, use: LinkUse): HomeAssistantLink {
  return new HomeAssistantLink({
    url: access.url,
    token: access.token,
    requireAdmin: access.requireAdmin,
    logger: use.logger,
    retryFirstConnect: use.giveUpAtOnce !== true,
    ...(use.heartbeatMs ? { heartbeatMs: use.heartbeatMs } : {}),
    ...(use.pongTimeoutMs ? { pongTimeoutMs: use.pongTimeoutMs } : {}),
  });
}
