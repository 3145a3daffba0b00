import type { BrokerAddress } from "../ha/mqtt/mqtt-link.js";
import { request } from "../http/undici.js";

const SERVICES_URL = "http://supervisor/services/mqtt";

/** The Supervisor could not be asked (it answered neither the broker nor "none installed"). */
export class SupervisorServiceError extends Error {
  override name = "SupervisorServiceError";
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
 */
export async function supervisorBroker(token: string, url = SERVICES_URL): Promise<BrokerAddress | null> {
  const response = await request(url, { headers: { authorization: `Bearer ${token}` } }).catch(
    (error: unknown) => {
      throw new SupervisorServiceError(`the Supervisor cannot be reached: ${(error as Error).message}`);
    },
  );
  const text = await response.body.text();
  if (response.statusCode === 400) return null;
  if (response.statusCode !== 200) {
    throw new SupervisorServiceError(`the Supervisor answered ${response.statusCode} for the MQTT service`);
  }
  const data = (JSON.parse(text) as { data?: MqttService }).data;
  if (!data?.host || !data.port)
    throw new SupervisorServiceError("the Supervisor's MQTT service has no host");
  return {
    url: `${data.ssl ? "mqtts" : "mqtt"}://${data.host}:${data.port}`,
    username: data.username || undefined,
    password: data.password || undefined,
  };
}
