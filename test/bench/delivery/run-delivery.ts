import { ApiSimulator } from "../../../src/simulator/index.js";
import {
  type HomeAssistantInstance,
  type MosquittoBroker,
  setUpMqttIntegration,
  startHomeAssistant,
  startMosquitto,
} from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";
import { type BurstResult, measureBurst } from "../cost/burst.js";
import type { PublishMode } from "../cost/configs.js";
import { type RunningBridge, startBridge } from "../real/bridge.js";
import { buildBridge } from "../real/build.js";
import { forgetEarlierBridge } from "../real/forget-bridge.js";
import { measureCatchup, type RealCatchupResult, recordBacklog } from "./catchup-real.js";
import type { DeliveryParams } from "./params.js";

export interface ModeResult {
  mode: PublishMode;
  burst: BurstResult;
  catchup: RealCatchupResult;
}

export interface DeliveryResult {
  params: DeliveryParams;
  homeAssistantVersion: string;
  modes: ModeResult[];
}

/** The longest a catch-up is waited for: far past what either mode takes (about 3.5 minutes). */
const CATCHUP_LIMIT_MS = 20 * 60_000;

/**
 * REST then MQTT, one after the other against the same Home Assistant (with its MQTT integration
 * on a real Mosquitto from the start, so both modes meet the same Home Assistant): in each mode a
 * burst while the bridge runs, then a first start with a day's backlog.
 */
export async function runDelivery(params: DeliveryParams): Promise<DeliveryResult> {
  await buildBridge();
  let ha: HomeAssistantInstance | undefined;
  let broker: MosquittoBroker | undefined;
  try {
    [ha, broker] = await Promise.all([startHomeAssistant(), startMosquitto()]);
    await setUpMqttIntegration(ha, broker);
    const fired = await ha.subscribeEvents("reward_facts_event");
    const modes: ModeResult[] = [];
    for (const mode of ["rest", "mqtt"] as const) {
      const env: Record<string, string> =
        mode === "rest"
          ? { REWARD_FACTS_PUBLISH: "rest" }
          : { REWARD_FACTS_PUBLISH: "mqtt", MQTT_URL: broker.url };
      const rig = { ha, broker, env };
      const burst = await withBridge(
        rig,
        () => ({ prepared: undefined }),
        async (sim, bridge) => {
          await waitFor(
            async () => (await rig.ha.getStates()).some((s) => s.entity_id.endsWith("_minutes_remaining")),
            {
              timeoutMs: 60_000,
              description: "the bridge's first states",
            },
          );
          log(`${mode}: burst of ${params.burst} facts`);
          return measureBurst(sim, fired, bridge.pid, sim.children.ordinary.id, params.burst);
        },
      );
      log(`${mode}: burst ${(burst.wallMs / burst.facts).toFixed(2)} ms a fact`);
      const catchup = await withBridge(
        rig,
        (sim) => {
          const backlog = recordBacklog(sim, params.catchupFacts, params.catchupChildren);
          // Only the backlog's children, as the virtual catch-up: the drain is theirs alone.
          return { prepared: backlog, env: { REWARD_FACTS_CHILDREN: [...backlog.keys()].join(",") } };
        },
        async (sim, bridge, backlog) => {
          const measured = await measureCatchup(sim, fired, backlog, bridge.spawnedAt, CATCHUP_LIMIT_MS);
          if (!Number.isFinite(measured.drainMs)) showLastLines(bridge);
          return measured;
        },
      );
      log(`${mode}: catch-up of ${params.catchupFacts} facts in ${(catchup.drainMs / 1000).toFixed(1)} s`);
      modes.push({ mode, burst, catchup });
    }
    return { params, homeAssistantVersion: ha.version, modes };
  } finally {
    await ha?.stop();
    await broker?.dispose();
  }
}

let starts = 0;

/**
 * A fresh simulator (`prepare`d before the bridge starts: what it holds, and more of the bridge's
 * environment) and a first start of the bridge on a Home Assistant that holds nothing of an
 * earlier one; both stopped after `measure`.
 */
async function withBridge<P, T>(
  rig: { ha: HomeAssistantInstance; broker: MosquittoBroker; env: Record<string, string> },
  prepare: (sim: ApiSimulator) => { prepared: P; env?: Record<string, string> },
  measure: (sim: ApiSimulator, bridge: RunningBridge, prepared: P) => Promise<T>,
): Promise<T> {
  await forgetEarlierBridge(rig);
  // No household activity of its own: the facts measured are the only ones. A seed of its own: other
  // children's ids, whose delivery records in Home Assistant no earlier start wrote (a first start
  // that found them would rightly skip the facts they name).
  const sim = await ApiSimulator.start({ activity: false, seed: ++starts });
  let bridge: RunningBridge | undefined;
  try {
    const { prepared, env } = prepare(sim);
    bridge = await startBridge(sim, rig.ha, { env: { ...rig.env, ...env } });
    return await measure(sim, bridge, prepared);
  } catch (error) {
    if (bridge) showLastLines(bridge);
    throw error;
  } finally {
    await bridge?.stop();
    await sim.stop();
  }
}

/** The bridge's last lines, which say why it failed (cut: a line can carry a whole answer). */
function showLastLines(bridge: RunningBridge): void {
  for (const line of bridge.process.output.slice(-15)) log(`  bridge: ${line.slice(0, 300)}`);
}

function log(message: string): void {
  process.stderr.write(`[bench delivery] ${message}\n`);
}
