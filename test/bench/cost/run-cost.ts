import { setTimeout as sleep } from "node:timers/promises";
import { ApiSimulator } from "../../../src/simulator/index.js";
import { type HomeAssistantInstance, startHomeAssistant } from "../../support/home-assistant.js";
import { type RunningBridge, startBridge } from "../real/bridge.js";
import { deleteBridgeStates } from "../real/ha-states.js";
import { ownChildrenRunning, type ProcSample, ProcSampler } from "../real/proc-stats.js";
import { type BurstResult, measureBurst } from "./burst.js";
import type { CostParams } from "./params.js";
import { measureStartup, type StartupTiming } from "./startup.js";

export interface CostResult {
  params: CostParams;
  children: number;
  startups: StartupTiming[];
  window: {
    ms: number;
    samples: ProcSample[];
    /** Home Assistant's own process over the same window, for scale. */
    haSamples: ProcSample[];
    requests: number;
    rateLimited: number;
    factsFired: number;
  };
  burst: BurstResult;
}

/** After start-up, before the window: the first round of polls and publications is over. */
const SETTLE_MS = 10_000;

/** The bridge as a process against the simulator (real time) and a real Home Assistant. */
export async function runCost(params: CostParams): Promise<CostResult> {
  let sim: ApiSimulator | undefined;
  let ha: HomeAssistantInstance | undefined;
  let bridge: RunningBridge | undefined;
  try {
    ha = await startHomeAssistant();
    const states = await ha.subscribeEvents("state_changed");
    const fired = await ha.subscribeEvents("reward_facts_event");
    // The demo household: Léa, Noah (shared custody), Inès (no rules synced: unavailable).
    const expected = [
      "sensor.reward_facts_status",
      ...["lea", "noah", "ines"].map((slug) => `sensor.reward_facts_${slug}_minutes_remaining`),
    ];
    const startups: StartupTiming[] = [];
    for (let run = 0; run < params.startupRuns; run++) {
      await deleteBridgeStates(ha);
      // A simulator of its own for each start: five starts in a row would otherwise share one token's
      // minute (about ten requests each) and the last ones wait out a 429, which no user start meets.
      sim = await ApiSimulator.start({ activity: { historyDays: 1, factsPerHour: params.factsPerHour } });
      bridge = await startBridge(sim, ha);
      startups.push(await measureStartup(states, bridge, expected));
      log(`start-up ${run + 1}/${params.startupRuns}: first state after ${startups.at(-1)?.firstStateMs} ms`);
      if (run < params.startupRuns - 1) {
        await bridge.stop();
        bridge = undefined;
        await sim.stop();
        sim = undefined;
      }
    }
    if (!bridge || !sim) throw new Error("no bridge running");
    await sleep(SETTLE_MS);

    log(`sampling the bridge (pid ${bridge.pid}) for ${params.windowMs / 1000} s`);
    // hass runs as a child of this process (its launcher execs it): the only one while this runs.
    const [haPid] = await ownChildrenRunning("bin/hass");
    const sampler = await new ProcSampler(bridge.pid, params.sampleMs).start();
    const haSampler = haPid === undefined ? undefined : await new ProcSampler(haPid, params.sampleMs).start();
    const start = Date.now();
    const firedBefore = fired.events.length;
    await sleep(params.windowMs);
    await sampler.stop();
    await haSampler?.stop();
    const end = Date.now();
    const factsFired = fired.events.length - firedBefore;
    const served = sim.requests.filter((r) => r.at >= start && r.at < end);

    log(`burst of ${params.burst} facts`);
    const burst = await measureBurst(sim, fired, bridge.pid, sim.children.ordinary.id, params.burst);
    return {
      params,
      children: 3,
      startups,
      window: {
        ms: end - start,
        samples: [...sampler.samples].sort((a, b) => a.at - b.at),
        haSamples: [...(haSampler?.samples ?? [])].sort((a, b) => a.at - b.at),
        requests: served.length,
        rateLimited: served.filter((r) => r.status === 429).length,
        factsFired,
      },
      burst,
    };
  } finally {
    await bridge?.stop();
    await ha?.stop();
    await sim?.stop();
  }
}

function log(message: string): void {
  process.stderr.write(`[bench cost] ${message}\n`);
}
