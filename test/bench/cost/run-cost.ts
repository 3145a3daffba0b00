import {
  type HomeAssistantInstance,
  type MosquittoBroker,
  setUpMqttIntegration,
  startHomeAssistant,
  startMosquitto,
} from "../../lab/index.js";
import { buildBridge } from "../real/build.js";
import { ownChildrenRunning, type ProcSample } from "../real/proc-stats.js";
import { imageMuslNode, imageNode, machineNode } from "../real/runtimes.js";
import { hasWebAssembly } from "../real/webassembly.js";
import { nodeBootTimes } from "./boot.js";
import { bridgeConfigs, plainRuntime } from "./configs.js";
import { type IdleResult, restPackages, sampleIdleNode } from "./idle.js";
import type { CostParams } from "./params.js";
import { type ConfigResult, type CostRig, runConfig } from "./run-config.js";

export interface CostResult {
  params: CostParams;
  homeAssistantVersion: string;
  configs: ConfigResult[];
  idle: IdleResult[];
  /** What the idle nodes' loadedSamples imported. */
  packages: string[];
  /** Home Assistant's own process over the first configuration's window, for scale. */
  haSamples: ProcSample[];
}

/**
 * The compiled bridge, one configuration after the other, against the simulator (real time) and
 * one real Home Assistant: the REST configurations first, then Mosquitto and Home Assistant's MQTT
 * integration for the MQTT ones (set up later, so that the REST runs meet a Home Assistant without
 * it, as a REST user's is). Then an idle node on each runtime (the image's Node with no flags
 * too), the floor each bridge's increment is measured from, bare and with the REST bridge's
 * packages imported. `eachFlag`: see bridgeConfigs.
 */
export async function runCost(params: CostParams, eachFlag = false): Promise<CostResult> {
  await buildBridge();
  const machine = machineNode();
  const image = await imageNode();
  const imageMusl = await imageMuslNode();
  const plain = plainRuntime(image);
  let ha: HomeAssistantInstance | undefined;
  let broker: MosquittoBroker | undefined;
  try {
    ha = await startHomeAssistant();
    const rig: CostRig = {
      ha,
      states: await ha.subscribeEvents("state_changed"),
      fired: await ha.subscribeEvents("reward_facts_event"),
    };
    // hass runs as a child of this process (its launcher execs it): the only one while this runs.
    const [haPid] = await ownChildrenRunning("bin/hass");
    const configs: ConfigResult[] = [];
    for (const config of bridgeConfigs(machine, image, imageMusl, eachFlag)) {
      if (config.mode === "mqtt" && !rig.broker) {
        broker = await startMosquitto();
        await setUpMqttIntegration(ha, broker);
        rig.broker = broker;
      }
      configs.push(await runConfig(rig, config, params, configs.length === 0 ? haPid : undefined));
    }
    const idle: IdleResult[] = [];
    const packages = await restPackages();
    for (const runtime of [machine, image, imageMusl, plain]) {
      idle.push({
        runtime,
        webAssembly: await hasWebAssembly(runtime),
        samples: await sampleIdleNode(runtime, params.idleMs, params.sampleMs),
        loadedSamples: await sampleIdleNode(runtime, params.idleMs, params.sampleMs, packages),
        bootMs: await nodeBootTimes(runtime, params.startupRuns),
      });
    }
    return {
      params,
      homeAssistantVersion: ha.version,
      configs,
      idle,
      packages,
      haSamples: configs[0]?.window?.alsoSamples ?? [],
    };
  } finally {
    await ha?.stop();
    await broker?.dispose();
  }
}
