import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { duration, num } from "../format.js";
import type { Section } from "../report/section.js";
import { POLITE_CHILDREN, politeGoals } from "./goals.js";
import { type Client, type ClientMetrics, measureClient, measureToken } from "./measure.js";
import { type SideBySideParams, sideBySideParams } from "./params.js";
import { refusalLines } from "./refusals.js";
import { runSideBySide, SIDE_BY_SIDE_HOME_ASSISTANT, type SideObservation } from "./run-side.js";

export async function sideBySideSection(quick: boolean): Promise<Section> {
  const params = sideBySideParams(quick);
  const observations: SideObservation[] = [];
  for (const run of params.runs) observations.push(await runSideBySide(params, run));
  await dumpObservations(observations);
  return sideBySideTable(params, observations);
}

export function sideBySideTable(params: SideBySideParams, observations: readonly SideObservation[]): Section {
  const { factEveryMs, factGapSpread, restScanSeconds, drainMs } = params;
  const columns: Array<{ o: SideObservation; client: Client; m: ClientMetrics }> = observations.flatMap((o) =>
    (["bridge", "rest"] as const).map((client) => ({ o, client, m: measureClient(o, client) })),
  );
  const row = (label: string, cell: (m: ClientMetrics) => string) => [
    label,
    ...columns.map((c) => cell(c.m)),
  ];
  // Both clients on the one token, as the API counts it: the same figure in both columns of a run.
  const tokenRow = [
    "both clients together (the token): max in 60 s / 429s",
    ...columns.map((c) => {
      const t = measureToken(c.o);
      return `${t.perMinuteMax} / ${t.rateLimited}`;
    }),
  ];
  const staleness = (s: ClientMetrics["eventStaleness"]) =>
    `${duration(s.mean)} / ${duration(s.p95)} / ${duration(s.max)}${s.missing > 0 ? `, ${s.missing} never` : ""}`;
  return {
    id: "side-by-side",
    title: "Side by side with hand-written `rest` sensors (real time, one Home Assistant)",
    setup:
      "The bridge and Home Assistant's own `rest` integration configured the way a user would write it " +
      `(per child: the today endpoint every ${restScanSeconds} s into minutes-remaining and points sensors, ` +
      `the events endpoint without a cursor into a last-event sensor), in the same Home Assistant ` +
      `${SIDE_BY_SIDE_HOME_ASSISTANT}, both on ` +
      "the one household token. An automation per client writes every fact it is triggered with into a file " +
      "notifier: the bridge's on `reward_facts_event`, the user's on a state change of a last-event sensor. " +
      "The window begins once the bridge has delivered the day's facts so far and Home Assistant has made " +
      "its third scan (its second comes some 59.5 s after the first and is refused in part whoever else " +
      "uses the token; the bridge learns its share in its first minute), and once the bridge has read every " +
      "child's journal since its last 429 (after that 429 it first reads the children its start had not " +
      "reached): it measures both clients steady. " +
      `During the window the simulator records one fact for Léa every ${factEveryMs / 1000} s on average ` +
      `(each gap drawn, seeded, within ±${num(factGapSpread * 100, 0)} %, so that the facts do not keep ` +
      `one phase against rest's scan; an ad-hoc validation: one point more each time); the counting goes ` +
      `on for ${drainMs / 1000} s after it.`,
    tables: [
      {
        columns: [
          "",
          ...columns.map(
            (c) =>
              `${c.client === "bridge" ? "bridge" : "rest"} (${c.o.run.children} children, ${num(c.o.run.windowMs / 60_000, 0)} min)`,
          ),
        ],
        rows: [
          row("requests a minute: mean / max in 60 s", (m) => `${num(m.perMinuteMean)} / ${m.perMinuteMax}`),
          row("429s", (m) => String(m.rateLimited)),
          tokenRow,
          row("journal facts of the window that reach automations", (m) => `${m.reached} / ${m.facts}`),
          row("  the same fact again", (m) => String(m.repeats)),
          row("  runs on a fact from before the window", (m) => String(m.olderFacts)),
          row("  runs on no fact (none, unknown…)", (m) => String(m.notFacts)),
          row("event staleness: mean / p95 / max", (m) => staleness(m.eventStaleness)),
          row("today staleness (points): mean / p95 / max", (m) => staleness(m.todayStaleness)),
          row("today sensors gone non-numeric (readable children)", (m) => String(m.todayGlitches)),
          row("CalmDay child", (m) => m.calmDay),
          row("409 child (no rules synced)", (m) => m.unsynced),
          row("Home Assistant's log about the client's entities", (m) => m.haLog),
        ],
      },
    ],
    goals: politeGoals(observations),
    goalsLabel: `Polite on a shared token (bridge + rest, ${POLITE_CHILDREN} children)`,
    notes: [
      "Requests are told apart by User-Agent (Home Assistant's HTTP client names itself; the bridge sends " +
        "none). Both share the token's 30 a minute; the bridge budgets 28 for itself and cannot see the " +
        "other client, so when the two together ask for more than 30, the API answers 429 to whichever comes " +
        "second, in both columns. After a 429 the bridge allows itself what had fitted in the window, less " +
        "two for the other client (never below 4), sends nothing for a short pause (5 s, doubled with each 429 in a row, " +
        "jittered), then spreads its requests over the minute; it grows back one request every two minutes " +
        "once half an hour has passed without a 429. When the budget is short, a child whose recent facts " +
        "stand out beyond chance (Léa here) has its journal read more often than the others.",
      `Polite on a shared token, the goal: in the ${POLITE_CHILDREN}-children run, at most one 429 for ` +
        "the bridge and none for rest, its event staleness mean no more than rest's, and every journal fact of the window " +
        "reaching the bridge's automation.",
      "journal facts of the window: every fact recorded in the window for the followed children (Léa's " +
        "produced ones and the day plans'; facts recorded during the drain are left out of every count). " +
        "reach: distinct facts that a run of the client's automation " +
        "received. The rest automation runs on every change of a last-event sensor, which holds the newest " +
        "event of the page at each poll: of the facts recorded between two polls only the last is seen; an " +
        "error body (429) turns it to `none` (a run on no fact) and the next good poll back to the fact it " +
        "held (a run on that fact again).",
      "event staleness: from a produced fact's recorded_at until HA shows it: the bridge's " +
        "reward_facts_event for it; for rest, the last-event sensor holding it or a later produced fact. " +
        "today staleness: until the client's points sensor shows at least the points after that fact. " +
        "Times are Home Assistant's time_fired of the state_changed/bus events.",
      "CalmDay and 409 rows: the entities' states at the end of the run. The bridge shows 0 minutes and " +
        "my day off on a CalmDay, and marks a 409 child unavailable with a reason; the rest templates read " +
        "fields the answer does not have.",
      "Home Assistant's log: a template that reads a field the answer lacks renders an empty string with " +
        "a warning; a sensor with a unit refuses it with an ERROR and a traceback, keeps its last value, and " +
        "the sensors after it on the same resource are not updated either; a sensor whose first value is " +
        "such an empty string is never created (`no entity`).",
    ],
  };
}

/**
 * The raw observations as JSON, to check a figure by hand, and beside them (FILE.refusals.txt) each
 * run's 429s and `rest` scans (refusals.ts): in REWARD_FACTS_BENCH_DUMP, or a file in the temp dir.
 * Always written: a run that misses the polite goal cannot be had again on demand.
 */
async function dumpObservations(observations: readonly SideObservation[]): Promise<void> {
  const file = process.env.REWARD_FACTS_BENCH_DUMP || join(tmpdir(), "reward-facts-bench-side-by-side.json");
  await writeFile(file, JSON.stringify(observations, null, 1));
  const lines = observations.flatMap((o) => [
    `${o.run.children} children (times from the window's start; the window lasts ${o.run.windowMs / 1000} s):`,
    ...refusalLines(o.requests, o.window.start).map((line) => `  ${line}`),
  ]);
  await writeFile(`${file}.refusals.txt`, `${lines.join("\n")}\n`);
  process.stderr.write(
    `[bench side-by-side] raw observations in ${file}, their 429s in ${file}.refusals.txt\n`,
  );
}
