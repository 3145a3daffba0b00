import { HomeAssistantSink } from "../../src/ha/ha-sink.js";
import { homeAssistantLink } from "../../src/ha/link/home-assistant-link.js";
import type { HomeAssistantSinkOptions } from "../../src/ha/sink-wiring.js";

export interface OwnLinkSinkOptions extends Omit<HomeAssistantSinkOptions, "link"> {
  /** A standalone token's user must be an administrator: checked unless told. */
  requireAdmin?: boolean;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
}

/**
 * A sink driven in a test's own process, on a link of its own, as the app wires one without the
 * household lease (the demo's way): its close() closes the link too, as the app's stop does.
 */
export function ownLinkSink(options: OwnLinkSinkOptions): HomeAssistantSink {
  const { requireAdmin, heartbeatMs, pongTimeoutMs, ...sinkOptions } = options;
  const link = homeAssistantLink(
    { url: options.url, token: options.token, requireAdmin: requireAdmin ?? true },
    {
      logger: options.logger,
      ...(heartbeatMs ? { heartbeatMs } : {}),
      ...(pongTimeoutMs ? { pongTimeoutMs } : {}),
    },
  );
  const sink = new HomeAssistantSink({ ...sinkOptions, link });
  const closeSink = sink.close.bind(sink);
  sink.close = async () => {
    try {
      await closeSink();
    } finally {
      link.close();
    }
  };
  return sink;
}
