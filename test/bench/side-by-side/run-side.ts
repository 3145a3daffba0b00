import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiSimulator, type ServedRequest } from "../../../src/simulator/index.js";
import { Rng } from "../../../src/simulator/random.js";
import {
  type HomeAssistantInstance,
  OLDEST_HOME_ASSISTANT_VERSION,
  startHomeAssistant,
} from "../../lab/index.js";
import { waitFor } from "../../support/wait-for.js";
import { type RunningBridge, startBridge } from "../real/bridge.js";
import { stateChange } from "../real/ha-states.js";
import { type SideHousehold, sideHousehold } from "./household.js";
import type { SideBySideParams, SideBySideRun } from "./params.js";
import { bridgePastItsStart, restScans } from "./refusals.js";
import { BRIDGE_LOG, REST_LOG, restEntities, userConfig } from "./rest-config.js";

export interface LoggedLine {
  at: number;
  message: string;
}

export interface SideObservation {
  run: SideBySideRun;
  household: { ordinary: string; calm: string; unsynced: string; slugs: Record<string, string> };
  followed: string[];
  /** The window facts are produced in, and the end of the drain after it. */
  window: { start: number; end: number; drainEnd: number };
  requests: ServedRequest[];
  /** Facts the bench recorded for Léa during the window, with her points right after each. */
  produced: Array<{ id: string; recordedAt: number; points: number }>;
  /** Every journal fact of the followed children recorded by the end. */
  journal: Array<{ childId: string; id: string; recordedAt: number }>;
  stateChanges: Array<{ entityId: string; state: string | null; at: number }>;
  fired: Array<{ id: string; at: number }>;
  /** Lines each automation's file notifier wrote. */
  logged: { bridge: LoggedLine[]; rest: LoggedLine[] };
  /** States at the end of the run, for the CalmDay and 409 children of both clients. */
  snapshot: Record<string, { state: string; attributes: Record<string, unknown> } | null>;
  /** What Home Assistant's log says about each client's entities. */
  haLog: HaLogSummary;
}

/** One household, one Home Assistant with the user's `rest` sensors, the bridge beside them. */
export async function runSideBySide(params: SideBySideParams, run: SideBySideRun): Promise<SideObservation> {
  const sim = await ApiSimulator.start({ activity: { historyDays: 1, factsPerHour: 0 } });
  let ha: HomeAssistantInstance | undefined;
  let bridge: RunningBridge | undefined;
  try {
    const household = sideHousehold(sim, run.children);
    const config = userConfig({
      household,
      baseUrl: sim.url,
      token: sim.tokens.household,
      scanSeconds: params.restScanSeconds,
    });
    // 2024.3.3: the file notifiers the automations write through are gone from YAML after 2024,
    // and the log lines counted (summarizeLog) are that release's wording.
    ha = await startHomeAssistant({ ...config, version: SIDE_BY_SIDE_HOME_ASSISTANT });
    const states = await ha.subscribeEvents("state_changed");
    const fired = await ha.subscribeEvents("reward_facts_event");
    bridge = await startBridge(sim, ha, {
      env: { REWARD_FACTS_CHILDREN: household.children.map((c) => c.id).join(",") },
    });
    const slug = (id: string) => household.slugs.get(id) ?? id;
    const lea = slug(household.ordinary.id);
    const instance = ha;
    await waitFor(
      async () =>
        (await instance.getState("sensor.reward_facts_status"))?.state === "ok" &&
        (await instance.getState(restEntities(lea).lastEvent)) !== null,
      { timeoutMs: 120_000, description: "both clients publishing" },
    );
    // The bridge starts without a cursor: it first delivers the day's facts so far. The window
    // begins once that catch-up is over, so that it measures the steady state of both clients.
    const day = sim.today(household.ordinary.id).date;
    await waitFor(
      () => {
        const delivered = new Set(fired.events.map((e) => String(e.data.event_id)));
        return household.children.every((c) =>
          sim.journal(c.id).every((e) => e.day !== day || delivered.has(e.id)),
        );
      },
      { timeoutMs: 300_000, description: "the bridge's catch-up of the day's facts" },
    );
    // And once both clients are past their start. Home Assistant's second scan comes some 59.5 s
    // after its first, which is still in the API's window: a part of it is refused whoever else
    // uses the token. The bridge learns its share at its first 429, in its first minute. Before
    // the household's first fact of the day the catch-up is over at once, and a window that began
    // then counted both: at 06:20 household time, rest's second scan fell 53 s into the window and
    // all 20 of its requests were refused (2026-11-25; a run at 08:20 had its window begin 3.5
    // minutes after the start, and no 429 for rest).
    await waitFor(() => restScans(sim.requests).length >= STEADY_FROM_SCAN, {
      timeoutMs: (STEADY_FROM_SCAN + 1) * params.restScanSeconds * 1000,
      description: `rest's scan number ${STEADY_FROM_SCAN}`,
    });
    // And the bridge past its own start: every child read at the share it learnt (refusals.ts).
    const followed = household.children.map((c) => c.id);
    await waitFor(() => bridgePastItsStart(sim.requests, followed), {
      timeoutMs: 300_000,
      description: "every child's journal read by the bridge since its last 429",
    });
    await sleep(5_000);

    const start = Date.now();
    log(
      `${run.children} children: window of ${run.windowMs / 1000} s, a fact every ${params.factEveryMs / 1000} s on average`,
    );
    const produced = await produceFacts(sim, household, start, run.windowMs, params);
    const end = start + run.windowMs;
    await sleep(Math.max(0, end - Date.now()) + params.drainMs);

    const drainEnd = Date.now();
    const snapshot = await snapshotOf(ha, household);
    const observation: SideObservation = {
      run,
      household: {
        ordinary: household.ordinary.id,
        calm: household.calm.id,
        unsynced: household.unsynced.id,
        slugs: Object.fromEntries(household.slugs),
      },
      followed: household.children.map((c) => c.id),
      window: { start, end, drainEnd },
      requests: [...sim.requests],
      produced,
      journal: household.children.flatMap((c) =>
        sim.journal(c.id).map((e) => ({ childId: c.id, id: e.id, recordedAt: Date.parse(e.at) })),
      ),
      stateChanges: states.events.map(stateChange),
      fired: fired.events.map((e) => ({ id: String(e.data.event_id), at: Date.parse(e.time_fired) })),
      logged: {
        bridge: await notifierLines(ha, BRIDGE_LOG),
        rest: await notifierLines(ha, REST_LOG),
      },
      snapshot,
      haLog: summarizeLog(await readFile(ha.logPath, "utf8").catch(() => "")),
    };
    return observation;
  } finally {
    await bridge?.stop();
    await ha?.stop();
    await sim.stop();
  }
}

async function produceFacts(
  sim: ApiSimulator,
  household: SideHousehold,
  start: number,
  windowMs: number,
  { factEveryMs, factGapSpread }: SideBySideParams,
): Promise<SideObservation["produced"]> {
  const produced: SideObservation["produced"] = [];
  const lea = household.ordinary.id;
  // Seeded: every run produces the same gaps; only their phase against rest's scan differs.
  const gaps = Rng.of("side-by-side facts", windowMs);
  const gap = () => factEveryMs * (1 + factGapSpread * (2 * gaps.next() - 1));
  for (let at = start + gap() / 2; at < start + windowMs; at += gap()) {
    await sleep(Math.max(0, at - Date.now()));
    // An ad-hoc validation: one point more each time, so the today state changes with every fact.
    const event = sim.addEvent(lea, { type: "behavior_validated" });
    const today = sim.today(lea);
    produced.push({
      id: event.id,
      recordedAt: Date.parse(event.at),
      points: today.isMyDay ? today.points : 0,
    });
  }
  return produced;
}

async function snapshotOf(ha: HomeAssistantInstance, household: SideHousehold) {
  const snapshot: SideObservation["snapshot"] = {};
  for (const child of [household.calm, household.unsynced]) {
    const slug = household.slugs.get(child.id) ?? child.id;
    const rest = restEntities(slug);
    for (const id of [
      `sensor.reward_facts_${slug}_minutes_remaining`,
      `binary_sensor.reward_facts_${slug}_my_day`,
      rest.minutesRemaining,
      rest.points,
      rest.lastEvent,
    ]) {
      const state = await ha.getState(id);
      snapshot[id] = state ? { state: state.state, attributes: state.attributes } : null;
    }
  }
  return snapshot;
}

export const SIDE_BY_SIDE_HOME_ASSISTANT = OLDEST_HOME_ASSISTANT_VERSION;

/** The first of rest's scans at its regular interval: the third (the second comes early). */
const STEADY_FROM_SCAN = 3;

/** What an automation's file notifier wrote: each line's instant and message (the header left out). */
async function notifierLines(ha: HomeAssistantInstance, file: string): Promise<LoggedLine[]> {
  const text = await readFile(join(ha.configDir, file), "utf8").catch(() => "");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  // Header: "Home Assistant notifications (Log started: …)" and a rule; then "<ISO instant> <message>".
  return lines.slice(2).map((line) => {
    const space = line.indexOf(" ");
    const at = Date.parse(space < 0 ? line : line.slice(0, space));
    return { at, message: space < 0 ? "" : line.slice(space + 1).trim() };
  });
}

export interface HaLogSummary {
  /** WARNING or ERROR lines naming a bridge entity. */
  bridgeLines: number;
  /** Templates that read a field the answer lacked (a CalmDay, an error body). */
  restTemplateWarnings: number;
  /** Sensors with a unit refusing the empty string such a template renders (an ERROR and a traceback). */
  restSensorErrors: number;
  /** Sensors Home Assistant never created, because their first value was such an empty string. */
  restNotAdded: string[];
}

export function summarizeLog(text: string): HaLogSummary {
  const lines = text.split("\n");
  const count = (pattern: RegExp) => lines.filter((line) => pattern.test(line)).length;
  return {
    bridgeLines: count(/\b(WARNING|ERROR)\b.*reward_facts/),
    restTemplateWarnings: count(/Template variable warning: .*value_json/),
    restSensorErrors: count(/^ValueError: Sensor sensor\.rest_/),
    restNotAdded: [
      ...new Set(lines.flatMap((line) => /Error adding entity (sensor\.rest_\w+)/.exec(line)?.[1] ?? [])),
    ],
  };
}

function log(message: string): void {
  process.stderr.write(`[bench side-by-side] ${message}\n`);
}
