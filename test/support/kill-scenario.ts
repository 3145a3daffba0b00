import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { derivedFactId } from "../../src/engine/derived-facts.js";
import type { ApiSimulator } from "../../src/simulator/index.js";
import { DELIVERED_LOG_FILE } from "../../src/store/delivered-log.js";
import { STORE_FILE_NAME } from "../../src/store/index.js";
import { REQUEST_LOG_FILE } from "../../src/store/request-log.js";
import {
  type EventRecorder,
  type HomeAssistantInstance,
  loggedEventIds,
  loggedEvents,
} from "../lab/index.js";
import { BridgeProcess } from "./bridge-process.js";
import { seededRandom } from "./engine-rig.js";
import { bridgeEnvironment } from "./lab-bridges.js";

// The crash scenarios of the fault suite and of `npm run soak`: facts flow from the simulator
// into a real Home Assistant while the bridge (or Home Assistant) is SIGKILLed at random moments;
// in the end every fact must have reached Home Assistant once.

export interface KillRoundOptions {
  ha: HomeAssistantInstance;
  /** A simulator of its own (facts are added to two of its children). */
  sim: ApiSimulator;
  kills: number;
  facts: number;
  seed: number;
  /** Called after each kill (progress for the soak). */
  onKill?: (index: number) => void;
  /** More of the bridge's environment (MQTT mode: the broker). */
  env?: Record<string, string>;
  /**
   * `test` (the default): the tests' pace, and a budget of what the simulator allows, so that the
   * last run drains what the killed ones left in seconds; `user`: the users' shortest intervals
   * and the API's 30 a minute (the soak, whose figures are a user's).
   */
  pace?: "test" | "user";
}

export interface KillRoundOutcome {
  /** The ids of the facts expected: the journal's, in order, then those derived from it. */
  journal: string[];
  /** Ids Home Assistant's automation logged for this journal, in order, repeats included. */
  logged: string[];
  missing: string[];
  repeated: string[];
  /** Kills that landed while facts were flowing into Home Assistant. */
  killedWhileDelivering: number;
  runs: BridgeProcess[];
  /** Exit code of the last run, stopped with SIGTERM. */
  lastExit: number | null;
}

/** Facts are produced at this pace: 2 per child every 50 ms, some sharing one instant. */
function produce(sim: ApiSimulator, facts: number): { stop: () => void; produced: () => number } {
  const { ordinary, custody } = sim.children;
  let produced = 0;
  const timer = setInterval(() => {
    for (const child of [ordinary, custody]) {
      if (produced < facts) produced += sim.addEvents(child.id, 2).length;
    }
  }, 50);
  return { stop: () => clearInterval(timer), produced: () => produced };
}

/**
 * Facts the bridge works out from today's readings, among the crashes: once the bridge has kept a
 * reading of the ordinary child's day (so that a change can be seen), each of her behaviors is
 * declared in the app, one every `everyMs`. Each gives one `behavior_declared` fact, whose id is
 * known in advance. `done` resolves once all are declared, or at `stop`.
 */
function declare(
  sim: ApiSimulator,
  dataDir: string,
  everyMs = 1_500,
): { stop: () => void; expected: () => string[]; done: Promise<void> } {
  const child = sim.children.ordinary;
  const declared: string[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const store = await readFile(join(dataDir, STORE_FILE_NAME), "utf8").catch(() => "");
      if (store.includes(`derived:${child.id}`)) break;
      await sleep(200);
    }
    for (const behavior of sim.behaviors(child.id)) {
      if (stopped) return;
      sim.declareBehavior(child.id, behavior.id);
      declared.push(derivedFactId(child.id, sim.today(child.id).date, "behavior_declared", behavior.id));
      await sleep(everyMs);
    }
  })();
  return {
    stop: () => {
      stopped = true;
    },
    expected: () => [...declared],
    done,
  };
}

function bridgeEnv(
  ha: HomeAssistantInstance,
  sim: ApiSimulator,
  dataDir: string,
  options: Pick<KillRoundOptions, "env" | "pace">,
): Record<string, string> {
  const { ordinary, custody } = sim.children;
  const rig = {
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    HA_URL: ha.url,
    HA_TOKEN: ha.token,
  };
  return bridgeEnvironment(
    { sim, bridgeEnv: rig },
    {
      children: [ordinary.id, custody.id],
      pace: options.pace ?? "test",
      env: { REWARD_FACTS_LOG_LEVEL: "warning", ...options.env },
    },
    dataDir,
  );
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => ({ size: 0 }))).size;
}

/** Repeats and missing ids of `journal` in `seen`. */
export function compare(journal: readonly string[], seen: readonly string[]) {
  const wanted = new Set(journal);
  const mine = seen.filter((id) => wanted.has(id));
  const count = new Map<string, number>();
  for (const id of mine) count.set(id, (count.get(id) ?? 0) + 1);
  return {
    seen: mine,
    missing: journal.filter((id) => !count.has(id)),
    repeated: [...count].filter(([, n]) => n > 1).map(([id]) => id),
  };
}

/** `kills` SIGKILLs of the bridge while `facts` facts flow; then one last run drains the rest. */
export async function runBridgeKills(options: KillRoundOptions): Promise<KillRoundOutcome> {
  const { ha, sim } = options;
  const dataDir = join(await mkdtemp(join(tmpdir(), "rf-kill-ha-")), "data");
  const env = bridgeEnv(ha, sim, dataDir, options);
  // The rate budget's memory across restarts has its own test; here every restart may catch up
  // at once (the simulator allows it), so that the kills land in deliveries.
  const forgetBudget = () => rm(join(dataDir, REQUEST_LOG_FILE), { force: true });
  const producer = produce(sim, options.facts);
  const declarer = declare(sim, dataDir);
  const random = seededRandom(options.seed);
  const runs: BridgeProcess[] = [];
  let killedWhileDelivering = 0;
  try {
    for (let i = 0; i < options.kills; i++) {
      await forgetBudget();
      const ledgerBefore = await sizeOf(join(dataDir, DELIVERED_LOG_FILE));
      const run = new BridgeProcess(env).start();
      runs.push(run);
      const before = (await loggedEventIds(ha)).length;
      if (i % 2 === 0) {
        // Any moment: starting up, connecting, polling, delivering.
        await sleep(700 + random() * 1_800);
      } else {
        // In the middle of a delivery, however long the start takes on a loaded machine: once
        // the run has noted a fact, within the next few facts. When nothing is left to deliver
        // (the producer done, everything in), any moment will do.
        const journalSize = () =>
          sim.journal(sim.children.ordinary.id).length + sim.journal(sim.children.custody.id).length;
        await ha
          .waitFor(
            async () =>
              (await sizeOf(join(dataDir, DELIVERED_LOG_FILE))) > ledgerBefore ||
              (producer.produced() >= options.facts && (await loggedEventIds(ha)).length >= journalSize()),
            { timeoutMs: 30_000, intervalMs: 20 },
          )
          .catch(() => undefined);
        await sleep(random() * 150);
      }
      await run.kill();
      if ((await loggedEventIds(ha)).length > before) killedWhileDelivering++;
      options.onKill?.(i);
    }
  } finally {
    await ha
      .waitFor(() => producer.produced() >= options.facts, { timeoutMs: 60_000 })
      .catch(() => undefined);
    producer.stop();
  }

  await forgetBudget();
  const last = new BridgeProcess(env).start();
  runs.push(last);
  // On a loaded machine no short-lived run may have lived long enough to keep a reading of the
  // day, and the behaviors wait for one: the last run keeps it, and they are declared during it.
  await Promise.race([declarer.done, sleep(120_000)]);
  declarer.stop();
  const journal = [
    ...[...sim.journal(sim.children.ordinary.id), ...sim.journal(sim.children.custody.id)].map((e) => e.id),
    ...declarer.expected(),
  ];
  // The last run drains what the short-lived ones left, at the budget's 28 requests a minute.
  // On timeout, go on: the outcome names the missing or repeated facts.
  await ha
    .waitFor(async () => compare(journal, await loggedEventIds(ha)).missing.length === 0, {
      timeoutMs: 240_000,
      intervalMs: 500,
    })
    .catch(() => undefined);
  // A moment for a repeat, if one were coming.
  await sleep(2_000);
  const lastExit = await last.stop();
  const { seen, missing, repeated } = compare(journal, await loggedEventIds(ha));
  return { journal, logged: seen, missing, repeated, killedWhileDelivering, runs, lastExit };
}

export interface HaKillsOptions {
  ha: HomeAssistantInstance;
  sim: ApiSimulator;
  kills: number;
  /**
   * `kill`: SIGKILL, then start again (a crash); `restart`: a clean stop (SIGTERM) and start;
   * `kill-both`: Home Assistant and the bridge SIGKILLed together, then both started again (the
   * bridge on the same data directory).
   */
  how?: "kill" | "restart" | "kill-both";
  facts: number;
  seed: number;
  /** Every reward_facts_event Home Assistant sends to a subscriber (re-subscribed after each restart). */
  recorder: EventRecorder;
  onKill?: (index: number) => void;
  /** More of the bridge's environment (MQTT mode: the broker). */
  env?: Record<string, string>;
  /** As for runBridgeKills. */
  pace?: "test" | "user";
}

export interface HaKillsOutcome {
  journal: string[];
  missing: string[];
  repeated: string[];
  /** Repeated facts whose later arrivals did not carry `redelivered: true`. */
  unmarkedRepeats: string[];
  /** Arrivals marked redelivered in all. */
  markedRedelivered: number;
  killedWhileDelivering: number;
  /** The last bridge run (the only one, unless `kill-both`). */
  bridge: BridgeProcess;
  /**
   * The same as the event-log automation saw it: what users' automations get. A subscriber's copy
   * of an event fired in the last moment before a clean stop can be lost with its connection
   * while automations ran; a SIGKILL can lose the log's last lines instead.
   */
  automations: ArrivalsSeen;
}

export interface ArrivalsSeen {
  missing: string[];
  repeated: string[];
  /** Repeated facts whose later arrivals did not carry `redelivered: true`. */
  unmarkedRepeats: string[];
  /** Arrivals marked redelivered in all. */
  markedRedelivered: number;
}

/** Missing and repeated facts of `journal` among `arrivals` (each an event's data, in order). */
export function arrivalsSeen(
  journal: readonly string[],
  arrivals: ReadonlyArray<Record<string, unknown>>,
): ArrivalsSeen {
  const ids = arrivals.map((data) => String(data.event_id));
  const { missing, repeated } = compare(journal, ids);
  const unmarkedRepeats = repeated.filter((id) =>
    arrivals
      .filter((data) => data.event_id === id)
      .slice(1)
      .some((data) => data.redelivered !== true),
  );
  const wanted = new Set(journal);
  const markedRedelivered = arrivals.filter(
    (data) => wanted.has(String(data.event_id)) && data.redelivered === true,
  ).length;
  return { missing, repeated, unmarkedRepeats, markedRedelivered };
}

/**
 * `kills` SIGKILLs (or clean restarts) of Home Assistant while facts flow into it, the bridge
 * running throughout.
 * What arrived is what Home Assistant sent a subscriber: an event is sent to subscribers as it
 * is fired, before the bridge's own answer, so an arrival the bridge was told of is seen here.
 */
export async function runHomeAssistantKills(options: HaKillsOptions): Promise<HaKillsOutcome> {
  const { ha, sim, recorder } = options;
  const dataDir = join(await mkdtemp(join(tmpdir(), "rf-kill-core-")), "data");
  const env = bridgeEnv(ha, sim, dataDir, options);
  let bridge = new BridgeProcess(env).start();
  const producer = produce(sim, options.facts);
  const declarer = declare(sim, dataDir);
  const random = seededRandom(options.seed);
  const arrivals = () => recorder.events.length;
  let killedWhileDelivering = 0;
  try {
    for (let i = 0; i < options.kills; i++) {
      // Wait until facts are flowing, then kill at a random moment of the flow.
      const before = arrivals();
      await ha
        .waitFor(() => arrivals() > before, { timeoutMs: 60_000, intervalMs: 20 })
        .catch(() => undefined);
      await sleep(random() * 400);
      const during = arrivals();
      // A clean stop takes its time (the restart begins with it): what arrives meanwhile counts.
      const stopping =
        options.how === "restart"
          ? ha.restart()
          : options.how === "kill-both"
            ? Promise.all([ha.kill(), bridge.kill()])
            : ha.kill();
      await sleep(50);
      if (arrivals() > before && during > before) killedWhileDelivering++;
      await stopping;
      if (options.how !== "restart") await ha.restart();
      if (options.how === "kill-both") bridge = new BridgeProcess(env).start();
      options.onKill?.(i);
    }
  } finally {
    await ha
      .waitFor(() => producer.produced() >= options.facts, { timeoutMs: 120_000 })
      .catch(() => undefined);
    producer.stop();
    declarer.stop();
  }
  const journal = [
    ...[...sim.journal(sim.children.ordinary.id), ...sim.journal(sim.children.custody.id)].map((e) => e.id),
    ...declarer.expected(),
  ];
  const ids = () => recorder.events.map((e) => String(e.data.event_id));
  // The view that judges gets the long wait: the subscriber's after a crash, the automations'
  // after clean restarts (a subscriber may never get an event fired just before a stop).
  const subscriberComplete = async () => compare(journal, ids()).missing.length === 0;
  const automationsComplete = async () => compare(journal, await loggedEventIds(ha)).missing.length === 0;
  const [judge, other] =
    options.how === "restart"
      ? [automationsComplete, subscriberComplete]
      : [subscriberComplete, automationsComplete];
  await ha.waitFor(judge, { timeoutMs: 300_000, intervalMs: 500 }).catch(() => undefined);
  await ha.waitFor(other, { timeoutMs: 10_000, intervalMs: 500 }).catch(() => undefined);
  await sleep(2_000);
  await bridge.stop();
  const subscriber = arrivalsSeen(
    journal,
    recorder.events.map((e) => e.data),
  );
  return {
    journal,
    ...subscriber,
    killedWhileDelivering,
    bridge,
    automations: arrivalsSeen(journal, await loggedEvents(ha)),
  };
}
