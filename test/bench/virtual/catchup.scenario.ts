import { performance } from "node:perf_hooks";
import { afterEach, describe, it } from "vitest";
import { localDateOf, localDayStartMs } from "../../../src/simulator/zoned-time.js";
import { busiestMinute } from "../../support/busiest-minute.js";
import { EngineRig } from "../../support/engine-rig.js";
import type { CatchupParams, CatchupResult } from "../catchup/params.js";
import { scenarioParams, writeScenarioResult } from "./scenario-io.js";

const MAX_DRAIN_MS = 3 * 3_600_000;

const params = scenarioParams<CatchupParams>("catchup");
let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe.runIf(params)("catch-up", () => {
  it("drains a backlog spread over the children", async () => {
    if (!params) return;
    const wallStart = performance.now();
    const ids: string[] = [];
    const perChild: number[] = [];
    const current = await EngineRig.start({
      start: params.start,
      // No automatic activity: the backlog is the whole journal.
      simulator: { activity: false },
      prepare: (sim) => {
        const children = Array.from({ length: params.children }, (_, i) =>
          sim.addChild(`Backlog ${i + 1}`, { planned: false }),
        );
        const now = sim.clock.now();
        const from = localDayStartMs(localDateOf(now, sim.timeZone), sim.timeZone);
        const step = (now - 1_000 - from) / params.facts;
        perChild.push(...children.map(() => 0));
        for (let i = 0; i < params.facts; i++) {
          const k = i % children.length;
          const child = children[k];
          if (!child) continue;
          // Ad-hoc validations (a point each) and cheers, spread evenly over the day so far.
          const fields =
            i % 2 === 0 ? ({ type: "behavior_validated" } as const) : ({ type: "cheer_sent" } as const);
          ids.push(sim.addEvent(child.id, fields, { at: Math.round(from + i * step) }).id);
          perChild[k] = (perChild[k] ?? 0) + 1;
        }
        return { childrenFilter: children.map((c) => c.id) };
      },
    });
    rig = current;
    const start = Date.now();
    const wanted = new Set(ids);
    const seen = () => current.sink.events.filter((e) => wanted.has(e.event.id)).length;
    await current.time.until(() => seen() >= ids.length, MAX_DRAIN_MS).catch(() => undefined);
    const deliveredIds = current.sink.events.map((e) => e.event.id).filter((id) => wanted.has(id));
    const lastAt = current.sink.events.filter((e) => wanted.has(e.event.id)).at(-1)?.at;
    const drainedAt = deliveredIds.length >= ids.length && lastAt !== undefined ? lastAt : Number.NaN;
    const used = current.sim.requests.filter((r) => r.at >= start && r.at <= (drainedAt || Date.now()));
    const orderOk = current.sink.children.every((child) => {
      const delivered = current.sink.eventIdsOf(child.id);
      const journal = current.sim.journal(child.id).map((e) => e.id);
      return delivered.every((id, i) => journal[i] === id);
    });
    const result: CatchupResult = {
      facts: ids.length,
      perChild,
      drainMs: drainedAt - start,
      delivered: new Set(deliveredIds).size,
      duplicates: deliveredIds.length - new Set(deliveredIds).size,
      inOrder: orderOk,
      requests: {
        total: used.length,
        events: used.filter((r) => /\/events/.test(r.path)).length,
        today: used.filter((r) => /\/today$/.test(r.path)).length,
        children: used.filter((r) => r.path === "/children").length,
        rateLimited: used.filter((r) => r.status === 429).length,
      },
      perMinuteMax: busiestMinute(used.map((r) => r.at)),
      wallMs: performance.now() - wallStart,
    };
    writeScenarioResult("catchup", result);
  });
});
