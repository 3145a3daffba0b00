// Which MQTT broker the bridge talks to, read from where the configuration says to look
// (config/broker-config.ts) in one place, for the two runs that choose differently: the bridge
// publishes through a broker only as the `publish` option allows, and the removal clears whatever
// broker the bridge may have published through before.
import type { BrokerSource } from "./config/broker-config.js";
import { type BridgeConfig, ConfigError } from "./config/load-config.js";
import { type BrokerAddress, supervisorBroker } from "./ha/index.js";
import type { Logger } from "./log/logger.js";

/**
 * The broker to publish entities through, per the `publish` option: null for REST-made states.
 * ConfigError when MQTT was asked for and no broker is known. Logs which way entities are published.
 */
export async function publishingBroker(
  config: BridgeConfig,
  logger: Logger,
  signal: AbortSignal,
): Promise<BrokerAddress | null> {
  const { broker, homeAssistant, options } = config;
  if (options.publish === "rest" || !homeAssistant) return null;
  // Only the Supervisor's answer can fail: the bridge then publishes states, unless told not to.
  const address = await configuredBroker(broker, signal).catch((error: unknown) => {
    signal.throwIfAborted();
    logger.warn({ err: error }, "the Supervisor's MQTT service could not be asked");
    return null;
  });
  if (!address && options.publish === "mqtt") {
    throw new ConfigError([
      "publish: mqtt, but no MQTT broker is known: install the Mosquitto broker add-on (or give MQTT_URL), or set publish to rest",
    ]);
  }
  logger.info(
    address ? { broker: new URL(address.url).host } : {},
    address
      ? "publishing entities through MQTT discovery"
      : "publishing entities as states (no MQTT broker known)",
  );
  return address;
}

/**
 * The broker whose retained messages go too, whatever the `publish` option says now: the bridge
 * may have published through it before. A Supervisor that cannot tell fails the removal (run it
 * again): the broker's configs would bring every device back.
 */
export function knownBroker(config: BridgeConfig, signal: AbortSignal): Promise<BrokerAddress | null> {
  return configuredBroker(config.broker, signal);
}

/** MQTT_URL's broker, the one the Supervisor names (rejects when it cannot tell), or none. */
async function configuredBroker(source: BrokerSource, signal: AbortSignal): Promise<BrokerAddress | null> {
  if (source.kind === "url") return source;
  if (source.kind === "none") return null;
  return supervisorBroker(source, signal);
}
