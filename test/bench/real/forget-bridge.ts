import type { HomeAssistantInstance, MosquittoBroker } from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";
import { deleteBridgeStates, isBridgeEntity } from "./ha-states.js";
import { clearBridgeFootprint } from "./mqtt-footprint.js";

/**
 * Home Assistant without any entity of an earlier bridge, so that the next start is a first start:
 * the MQTT footprint cleared on the broker, when there is one (Home Assistant then removes those
 * entities), and the states a REST bridge wrote deleted.
 */
export async function forgetEarlierBridge(rig: {
  ha: HomeAssistantInstance;
  broker?: MosquittoBroker;
}): Promise<void> {
  if (rig.broker && (await clearBridgeFootprint(rig.broker.url)) > 0) {
    await waitFor(async () => !(await rig.ha.getStates()).some((s) => isBridgeEntity(s.entity_id)), {
      timeoutMs: 30_000,
      description: "Home Assistant removing the bridge's MQTT entities",
    }).catch((error: unknown) =>
      process.stderr.write(`[bench] going on anyway: ${error instanceof Error ? error.message : error}\n`),
    );
  }
  await deleteBridgeStates(rig.ha);
}
