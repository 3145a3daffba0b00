import { randomBytes } from "node:crypto";
import type { ApiSimulator, SimulatorOptions } from "../../src/simulator/index.js";
import { startHomeAssistant } from "./home-assistant.js";
import { setUpMqttIntegration } from "./home-assistant-mqtt.js";
import type { HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant-types.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";
import { type MosquittoBroker, startMosquitto } from "./mosquitto.js";
import { startRigSimulator } from "./rig-simulator.js";

/**
 * What an MQTT suite runs the bridge between: a real Home Assistant whose MQTT integration is set
 * up the way a user does it (its config flow), on a real Mosquitto that admits one user, and a
 * simulator (no household activity of its own unless the suite asks). `stop` ends all three.
 */
export interface MqttRig {
  ha: HomeAssistantInstance;
  broker: MosquittoBroker;
  sim: ApiSimulator;
  /** The broker's only user. The password is drawn per rig: a suite looks for it in the output. */
  user: { username: string; password: string };
  /** How a bridge reaches the API (household token), Home Assistant and the broker: MQTT mode. */
  bridgeEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** `homeAssistant`: more of Home Assistant's configuration (the recorder, say). */
export async function startMqttRig(
  version?: HomeAssistantVersion,
  simulator: SimulatorOptions = { activity: false },
  /** Home Assistant's own configuration, besides the MQTT integration (automations, lights…). */
  homeAssistant: Pick<StartHomeAssistantOptions, "automations" | "extraConfig"> = {},
): Promise<MqttRig> {
  const user = { username: "bridge", password: `mqtt-pw-${randomBytes(6).toString("hex")}` };
  const [ha, broker, sim] = await Promise.all([
    startHomeAssistant({ ...homeAssistant, version }),
    startMosquitto({ user }),
    startRigSimulator(simulator),
  ]);
  const stop = async () => {
    await ha.stop();
    await broker.dispose();
    await sim.stop();
  };
  try {
    await setUpMqttIntegration(ha, broker, user);
    return {
      ha,
      broker,
      sim,
      user,
      bridgeEnv: {
        REWARD_FACTS_API_TOKEN: sim.tokens.household,
        REWARD_FACTS_API_BASE_URL: sim.url,
        HA_URL: ha.url,
        HA_TOKEN: ha.token,
        MQTT_URL: broker.url,
        MQTT_USERNAME: user.username,
        MQTT_PASSWORD: user.password,
      },
      stop,
    };
  } catch (error) {
    // The suite's afterAll has no rig to stop when its start fails.
    await stop();
    throw error;
  }
}
