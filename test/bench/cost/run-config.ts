import { setTimeout as sleep } from "node:timers/promises";
import { ApiSimulator } from "../../../src/simulator/index.js";
import type { EventRecorder, HomeAssistantInstance, MosquittoBroker } from "../../lab/index.js";
import { type RunningBridge, startBridge } from "../real/bridge.js";
import { forgetEarlierBridge } from "../real/forget-bridge.js";
import { type ProcSample, ProcSampler } from "../real/proc-stats.js";
import { hasWebAssembly } from "../real/webassembly.js";
import { type BurstResult, measureBurst } from "./burst.js";
import { type BridgeConfig, configLabel } from "./configs.js";
import type { CostParams } from "./params.js";
import { measureStartup, type StartupTiming } from "./startup.js";

export interface ConfigResult {
  label: string;
  config: BridgeConfig;
  webAssembly: boolean;
  startups: StartupTiming[];
  /** A start that showed nothing in Home Assistant in time: the rest was not measured. */
  failure?: { reason: string; lastLines: string[] };
  window?: {
    ms: number;
    samples: ProcSample[];
    /** Another process sampled over the same window (Home Assistant's, for scale). */
    alsoSamples: ProcSample[];
    requests: number;
    rateLimited: number;
    factsFired: number;
  };
  burst?: BurstResult;
}

export interface CostRig {
  ha: HomeAssistantInstance;
  states: EventRecorder;
  fired: EventRecorder;
  /** Given for the MQTT configurations. */
  broker?: MosquittoBroker;
}

/** The entities that hold a value once a start is done: the status, the readable children's minutes. */
const EXPECTED = [
  "sensor.reward_facts_status",
  ...["lea", "noah"].map((slug) => `sensor.reward_facts_${slug}_minutes_remaining`),
];

/**
 * One configuration: `startupRuns` first starts (each with a fresh simulator, data dir and no
 * entity of an earlier bridge in Home Assistant), then the last one sampled over the window, then
 * a burst of facts. A comparison (a runtime no one runs the bridge on, there for its memory) starts
 * once and has no burst. `alsoPid` is sampled over the same window.
 */
export async function runConfig(
  rig: CostRig,
  config: BridgeConfig,
  params: CostParams,
  alsoPid?: number,
): Promise<ConfigResult> {
  const label = configLabel(config);
  const result: ConfigResult = {
    label,
    config,
    webAssembly: await hasWebAssembly(config.runtime),
    startups: [],
  };
  let sim: ApiSimulator | undefined;
  let bridge: RunningBridge | undefined;
  const startupRuns = config.comparison ? 1 : params.startupRuns;
  try {
    for (let run = 0; run < startupRuns; run++) {
      await forgetEarlierBridge(rig);
      // A simulator of its own for each start: starts in a row would otherwise share one token's
      // minute (about ten requests each) and the last ones wait out a 429, which no user start meets.
      sim = await ApiSimulator.start({ activity: { historyDays: 1, factsPerHour: params.factsPerHour } });
      bridge = await startBridge(sim, rig.ha, { runtime: config.runtime, env: publishEnv(rig, config) });
      try {
        result.startups.push(await measureStartup(rig.states, bridge, EXPECTED, params.startupTimeoutMs));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // The last lines say why; cut, since a log line can carry a whole answer.
        const lastLines = bridge.process.output.slice(-3).map((line) => line.slice(0, 200));
        result.failure = { reason, lastLines };
        log(`${label}: ${reason}`);
        return result;
      }
      log(`${label}, start-up ${run + 1}/${startupRuns}: ${result.startups.at(-1)?.firstStateMs} ms`);
      if (run < startupRuns - 1) {
        await bridge.stop();
        bridge = undefined;
        await sim.stop();
        sim = undefined;
      }
    }
    if (!bridge || !sim) throw new Error("no bridge running");
    log(`${label}: ${params.settleMs / 1000} s for the start's tail to pass`);
    await sleep(params.settleMs);

    log(`${label}: sampling the bridge (pid ${bridge.pid}) for ${params.windowMs / 1000} s`);
    const sampler = await new ProcSampler(bridge.pid, params.sampleMs).start();
    const also = alsoPid === undefined ? undefined : await new ProcSampler(alsoPid, params.sampleMs).start();
    const start = Date.now();
    const firedBefore = rig.fired.events.length;
    await sleep(params.windowMs);
    await sampler.stop();
    await also?.stop();
    const end = Date.now();
    const served = sim.requests.filter((r) => r.at >= start && r.at < end);
    result.window = {
      ms: end - start,
      samples: [...sampler.samples].sort((a, b) => a.at - b.at),
      alsoSamples: [...(also?.samples ?? [])].sort((a, b) => a.at - b.at),
      requests: served.length,
      rateLimited: served.filter((r) => r.status === 429).length,
      factsFired: rig.fired.events.length - firedBefore,
    };

    if (config.comparison) return result;
    log(`${label}: burst of ${params.burst} facts`);
    result.burst = await measureBurst(sim, rig.fired, bridge.pid, sim.children.ordinary.id, params.burst);
    return result;
  } finally {
    await bridge?.stop();
    await sim?.stop();
  }
}

function publishEnv(rig: CostRig, config: BridgeConfig): Record<string, string> {
  if (config.mode === "rest") return { REWARD_FACTS_PUBLISH: "rest" };
  if (!rig.broker) throw new Error("an MQTT configuration needs a broker");
  return { REWARD_FACTS_PUBLISH: "mqtt", MQTT_URL: rig.broker.url };
}

function log(message: string): void {
  process.stderr.write(`[bench cost] ${message}\n`);
}
