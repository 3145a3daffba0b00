import { request } from "../../../http/undici.js";
import type { BrokerAddress } from "./mqtt-link.js";

// The add-on's broker, as the Supervisor's services API tells it. Configuration only says to ask
// (src/config/broker-config.ts); asking is the MQTT wing's, which is what the answer is for.

/** The Supervisor could not be asked (it answered neither the broker nor "none installed"). */
export class SupervisorServiceError extends Error {
  override name = "SupervisorServiceError";
}

/** Where the Supervisor is (`http://supervisor` in the add-on) and the add-on's token for it. */
export interface SupervisorAccess {
  url: string;
  token: string;
}

interface MqttService {
  host: string;
  port: number;
  ssl?: boolean;
  username?: string;
  password?: string;
}

/**
 * The MQTT broker the Supervisor knows (the Mosquitto add-on, with a user made for this add-on,
 * because config.yaml says `services: mqtt:want`), or null when none is installed (it answers 400).
 * Rejects with the signal's reason when it aborts first (a stop during start-up).
 */
export async function supervisorBroker(
  supervisor: SupervisorAccess,
  signal?: AbortSignal,
): Promise<BrokerAddress | null> {
  const response = await request(`${supervisor.url}/services/mqtt`, {
    headers: { authorization: `Bearer ${supervisor.token}` },
    signal,
  }).catch((error: unknown) => {
    signal?.throwIfAborted();
    throw new SupervisorServiceError(`the Supervisor cannot be reached: ${(error as Error).message}`);
  });
  const text = await response.body.text();
  if (response.statusCode === 400) return null;
  if (response.statusCode !== 200) {
    throw new SupervisorServiceError(`the Supervisor answered ${response.statusCode} for the MQTT service`);
  }
  let data: MqttService | undefined;
  try {
    data = (JSON.parse(text) as { data?: MqttService }).data;
  } catch {
    throw new SupervisorServiceError("the Supervisor's MQTT service answered no JSON");
  }
  if (!data?.host || !data.port)
    throw new SupervisorServiceError("the Supervisor's MQTT service has no host");
  return {
    url: `${data.ssl ? "mqtts" : "mqtt"}://${data.host}:${data.port}`,
    username: data.username || undefined,
    password: data.password || undefined,
  };
}
