import { performance } from "node:perf_hooks";
import { afterEach, describe, it } from "vitest";
import { EngineRig } from "../../support/engine-rig.js";
import { budgetHousehold } from "../budget/household.js";
import { measureBudget } from "../budget/measure.js";
import type { BudgetParams, BudgetResult } from "../budget/params.js";
import { scenarioParams, writeScenarioResult } from "./scenario-io.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** After the measured hours, time for the facts of the last minutes to arrive (not measured). */
const TAIL_MS = 10 * MINUTE;

const params = scenarioParams<BudgetParams>("budget");
let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe.runIf(params)("request budget", () => {
  for (const n of params?.children ?? []) {
    it(`${n} children over ${params?.hours} simulated hours`, async () => {
      if (!params) return;
      const wallStart = performance.now();
      const current = await EngineRig.start({
        start: params.start,
        simulator: { activity: { historyDays: 0, factsPerHour: params.factsPerHour } },
        prepare: (sim) => budgetHousehold(sim, n),
      });
      rig = current;
      const start = Date.now();
      await current.time.advance(params.hours * HOUR);
      const end = Date.now();
      const status = current.engine.status();
      await current.time.advance(TAIL_MS);

      const facts = status.children.flatMap((child) =>
        current.sim
          .journal(child.id)
          .map((event) => ({ childId: child.id, id: event.id, recordedAt: Date.parse(event.at) }))
          .filter((f) => f.recordedAt >= start && f.recordedAt <= end),
      );
      const metrics = measureBudget({
        start,
        end,
        requests: current.sim.requests,
        facts,
        deliveredAt: new Map(current.sink.events.map((e) => [e.event.id, e.at])),
        todays: current.sink.todays,
      });
      const result: BudgetResult = {
        children: n,
        hours: params.hours,
        factsPerHour: params.factsPerHour,
        stretch: status.stretch,
        todayStretch: status.todayStretch,
        demandPerMinute: status.demandPerMinute,
        metrics,
        wallMs: performance.now() - wallStart,
      };
      writeScenarioResult(`budget-${n}`, result);
    });
  }
});
