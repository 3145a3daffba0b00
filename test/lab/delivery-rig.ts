import type { ApiSimulator, SimulatorOptions } from "../../src/simulator/index.js";
import { eventLogConfig } from "./ha-event-log.js";
import { startHomeAssistant } from "./home-assistant.js";
import type { HomeAssistantInstance } from "./home-assistant-types.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";
import { startRigSimulator } from "./rig-simulator.js";

/**
 * What a fault suite delivers between: a real Home Assistant whose automation logs every
 * reward_facts_event (ha-event-log.ts), and a simulator with no household activity of its own, so
 * that the facts the suite records are the only ones. Started side by side; `stop` ends both.
 */
export interface DeliveryRig {
  ha: HomeAssistantInstance;
  sim: ApiSimulator;
  /** How a bridge reaches the API (household token) and Home Assistant: REST mode. */
  bridgeEnv: Record<string, string>;
  stop(): Promise<void>;
}

export async function startDeliveryRig(
  version?: HomeAssistantVersion,
  simulator: SimulatorOptions = { activity: false },
): Promise<DeliveryRig> {
  const [ha, sim] = await Promise.all([
    startHomeAssistant({ ...eventLogConfig, version }),
    startRigSimulator(simulator),
  ]);
  return {
    ha,
    sim,
    bridgeEnv: {
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      HA_URL: ha.url,
      HA_TOKEN: ha.token,
    },
    stop: async () => {
      await ha.stop();
      await sim.stop();
    },
  };
}
