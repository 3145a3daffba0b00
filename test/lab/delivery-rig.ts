import { ApiSimulator, type SimulatorOptions } from "../../src/simulator/index.js";
import { eventLogConfig } from "./ha-event-log.js";
import { startHomeAssistant } from "./home-assistant.js";
import type { HomeAssistantInstance } from "./home-assistant-types.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";

/**
 * What a fault suite delivers between: a real Home Assistant whose automation logs every
 * reward_facts_event (ha-event-log.ts), and a simulator with no household activity of its own, so
 * that the facts the suite records are the only ones. Started side by side; `stop` ends both.
 */
export interface DeliveryRig {
  ha: HomeAssistantInstance;
  sim: ApiSimulator;
  stop(): Promise<void>;
}

export async function startDeliveryRig(
  version?: HomeAssistantVersion,
  simulator: SimulatorOptions = { activity: false },
): Promise<DeliveryRig> {
  const [ha, sim] = await Promise.all([
    startHomeAssistant({ ...eventLogConfig, version }),
    ApiSimulator.start(simulator),
  ]);
  return {
    ha,
    sim,
    stop: async () => {
      await ha.stop();
      await sim.stop();
    },
  };
}
