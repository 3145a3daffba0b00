import { duration, int } from "../format.js";
import type { Section } from "../report/section.js";
import { BRIDGE_BUDGET_PER_MINUTE, restartsGoals } from "./goals.js";
import { measureRestarts } from "./measure.js";
import { restartsParams } from "./params.js";
import { type RestartsObservation, runRestarts } from "./run-restarts.js";

export async function restartsSection(): Promise<Section> {
  return restartsTable(await runRestarts(restartsParams()));
}

export function restartsTable(o: RestartsObservation): Section {
  const m = measureRestarts(o);
  const { kills, lifeMs, observeMs } = o.params;
  return {
    id: "restarts",
    title: "Restarts in a crash loop (real time)",
    goalsLabel: `${kills} restarts in a minute`,
    setup:
      `The compiled bridge (\`node dist/src/main.js\`, ${o.runtime.label} ${o.runtime.version}) against the ` +
      "simulator with the spec's limit (30 requests a minute and token, sliding 60 s), 3 children (Léa, " +
      `Noah, Inès), default intervals, one data dir throughout (as the add-on keeps /data): started and ` +
      `killed (SIGKILL) ${kills} times, each living ${lifeMs / 1000} s, then started once more and left ` +
      `running until ${observeMs / 1000} s after the first start, then stopped (SIGTERM).`,
    tables: [
      {
        columns: ["", "measured", "goal"],
        numeric: true,
        rows: [
          [`${kills} starts killed within`, duration(m.killsSpanMs), "≤ 60 s"],
          ["requests the simulator answered (all starts)", int(m.requests), "–"],
          ["  of which each start", m.perStart.join(" / "), "–"],
          ["429s", int(m.rateLimited), "0"],
          ["busiest 60 s at the simulator", int(m.busiestMinute), `≤ ${BRIDGE_BUDGET_PER_MINUTE}`],
          ["children whose today was read", `${m.childrenRead} / ${m.children}`, "all"],
          ["exit code of the last start (SIGTERM)", String(o.lastExit), "0"],
        ],
      },
    ],
    notes: [
      "Each start reads the children, then each child's journal and today (7 requests for 3 children); " +
        "five such starts within a minute would ask for more than 30 if each counted only its own. The " +
        "bridge keeps its requests of the last minutes in the data dir (api-requests.log), so a new start " +
        "counts what the killed ones sent.",
      "busiest 60 s: the most requests the simulator answered in any sliding 60 s window, from the first " +
        `start to the end; the bridge budgets ${BRIDGE_BUDGET_PER_MINUTE} of the API's 30.`,
    ],
    goals: restartsGoals(m),
  };
}
