import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { ApiSimulator } from "../../src/simulator/index.js";
import { HOME_ASSISTANT_SETUP_TIMEOUT_MS } from "../lab/index.js";
import { type BridgeLaunch, BridgeProcess } from "./bridge-process.js";

/*
 * The one opening of a suite that runs the bridge on a lab rig: the rig's addresses, the tests'
 * defaults, a data directory of its own, and every run stopped when the suite ends.
 *
 * The tests' pace: the journal read every 2 s, each child's day every 3 s and an unchanged status
 * published again every 5 s (a user's: 30 s, 60 s, 60 s), with a budget told what the rig's
 * simulator allows (test/lab/rig-simulator.ts), so that a test waits seconds for the reading it is
 * about, and "a repeat would have come by now" is a count of readings, not half a minute
 * (support/served-reads.ts). The polling itself, at the users' intervals and the API's 30 a
 * minute, is proven by the engine's suites on the virtual clock; a suite about what a user's pace
 * shows (the publisher end to end, the status' budget) asks for `pace: "user"`.
 */

/** What a bridge on a rig is pointed at: the simulator, and how it reaches the API, Home Assistant and the broker. */
export interface BridgeTarget {
  sim: ApiSimulator;
  bridgeEnv: Record<string, string>;
}

export interface LabBridgeOptions {
  /** The children to follow (ids); every child of the token when absent. */
  children?: readonly string[];
  /** How entities are published; the bridge's own choice (MQTT when the rig has a broker) when absent. */
  publish?: "rest" | "mqtt";
  /** A data directory to start on (an earlier run's); a new one when absent. */
  dataDir?: string;
  /** `test` (the default): the tests' pace; `user`: the shortest intervals a user may set, the API's own limit. */
  pace?: "test" | "user";
  /** Anything else of the bridge's environment; it has the last word. */
  env?: Record<string, string>;
  /** How the bridge is run: the sources by default; the built bundle, or the sources under strace. */
  launch?: BridgeLaunch;
}

/** The tests' pace: a child's journal and day, and an unchanged status published again, in milliseconds. */
export const TEST_INTERVALS_MS = { events: 2_000, today: 3_000, status: 5_000 } as const;
/** The users' shortest intervals, in seconds (options-schema.ts). */
const USER_INTERVALS_S = { events: 10, today: 15 } as const;

/** The environment of a run: the rig's addresses, the pace, then the suite's own. */
export function bridgeEnvironment(
  target: BridgeTarget,
  options: LabBridgeOptions,
  dataDir: string,
): Record<string, string> {
  const pace: Record<string, string> =
    options.pace === "user"
      ? {
          REWARD_FACTS_EVENTS_INTERVAL_SECONDS: String(USER_INTERVALS_S.events),
          REWARD_FACTS_TODAY_INTERVAL_SECONDS: String(USER_INTERVALS_S.today),
        }
      : {
          REWARD_FACTS_TEST_INTERVALS_MS: [
            TEST_INTERVALS_MS.events,
            TEST_INTERVALS_MS.today,
            TEST_INTERVALS_MS.status,
          ].join(","),
          REWARD_FACTS_TEST_API_LIMIT: String(target.sim.rateLimitPerMinute),
        };
  return {
    ...target.bridgeEnv,
    ...pace,
    ...(options.children ? { REWARD_FACTS_CHILDREN: options.children.join(",") } : {}),
    ...(options.publish ? { REWARD_FACTS_PUBLISH: options.publish } : {}),
    REWARD_FACTS_DATA_DIR: dataDir,
    ...options.env,
  };
}

/** The bridges of one suite on one rig: each started with the tests' defaults, all killed when it ends. */
export class LabBridges {
  readonly runs: BridgeProcess[] = [];

  constructor(readonly target: () => BridgeTarget) {}

  /** Starts a bridge process (it keeps running until the test stops it, or the suite ends). */
  async start(options: LabBridgeOptions = {}): Promise<BridgeProcess> {
    const dataDir = options.dataDir ?? join(await mkdtemp(join(tmpdir(), "rf-bridge-")), "data");
    return this.#started(
      new BridgeProcess(bridgeEnvironment(this.target(), options, dataDir), options.launch),
    );
  }

  /** A new run of `run`'s bridge: its launch, environment and data directory, and `env` over them. */
  again(run: BridgeProcess, env: Record<string, string> = {}): BridgeProcess {
    return this.#started(new BridgeProcess({ ...run.env, ...env }, run.launch));
  }

  /** SIGKILLs every run still going (a suite's end: what a test left running says nothing more). */
  async killAll(): Promise<void> {
    for (const run of this.runs) await run.kill();
  }

  #started(run: BridgeProcess): BridgeProcess {
    this.runs.push(run.start());
    return run;
  }
}

/** A lab rig: what the lab's startDeliveryRig and startMqttRig give. */
export interface Rig extends BridgeTarget {
  stop(): Promise<void>;
}

/** A suite on one rig, and the bridges it runs there. */
export interface RigSuite<R extends Rig> extends Pick<LabBridges, "start" | "again" | "runs"> {
  /** The rig, once the suite's first beforeAll has started it. */
  readonly rig: R;
}

/**
 * The suite's opening: `startRig` in a beforeAll (given the time a first install takes), and after
 * the suite every bridge killed, then the rig stopped. Call it before the suite's own hooks, so
 * that they find the rig started and run before it stops.
 */
export function suiteOnRig<R extends Rig>(startRig: () => Promise<R>): RigSuite<R> {
  let rig: R | undefined;
  const bridges = new LabBridges(() => started());
  const started = (): R => {
    if (!rig) throw new Error("the suite's rig is not started: suiteOnRig's beforeAll failed or has not run");
    return rig;
  };
  beforeAll(async () => {
    rig = await startRig();
  }, HOME_ASSISTANT_SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await bridges.killAll();
    await rig?.stop();
  });
  return {
    get rig() {
      return started();
    },
    runs: bridges.runs,
    start: (options) => bridges.start(options),
    again: (run, env) => bridges.again(run, env),
  };
}
