// Where the MQTT broker comes from, for the MQTT publishing mode: the Supervisor's MQTT service in
// the add-on (asked at start by src/ha/entities/mqtt/supervisor-broker.ts), MQTT_URL and its credentials
// standalone. Configuration says only where to look; nothing here talks to a broker or the Supervisor.

export type BrokerSource =
  /** No broker known: entities are REST-made states. */
  | { kind: "none" }
  /** The add-on asks the Supervisor at `url` which broker is installed (the Mosquitto add-on). */
  | { kind: "supervisor"; url: string; token: string }
  | { kind: "url"; url: string; username?: string | undefined; password?: string | undefined };

/** MQTT_URL, MQTT_USERNAME and MQTT_PASSWORD, each problem as one `NAME: problem` line. */
export function standaloneBroker(env: NodeJS.ProcessEnv, problems: string[]): BrokerSource {
  const url = env.MQTT_URL?.trim() || undefined;
  const username = env.MQTT_USERNAME || undefined;
  const password = env.MQTT_PASSWORD || undefined;
  if (!url) {
    if (username || password) problems.push("MQTT_URL: required when MQTT_USERNAME or MQTT_PASSWORD is set");
    return { kind: "none" };
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !["mqtt:", "mqtts:"].includes(parsed.protocol) || parsed.hostname === "") {
    problems.push("MQTT_URL: must be an mqtt:// or mqtts:// URL with a host, e.g. mqtt://192.168.1.10:1883");
  } else if (parsed.username || parsed.password) {
    // A URL with credentials ends up in logs; the password must never.
    problems.push("MQTT_URL: put the user and password in MQTT_USERNAME and MQTT_PASSWORD, not in the URL");
  }
  if (username && !password) problems.push("MQTT_PASSWORD: required when MQTT_USERNAME is set");
  if (password && !username) problems.push("MQTT_USERNAME: required when MQTT_PASSWORD is set");
  return { kind: "url", url, username, password };
}
