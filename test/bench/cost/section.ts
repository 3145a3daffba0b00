import { CURRENT_HOME_ASSISTANT_VERSION } from "../../support/home-assistant.js";
import { duration, mebibytes, millis, num, percent } from "../format.js";
import type { ProcSample } from "../real/proc-stats.js";
import type { Section } from "../report/section.js";
import { max, mean, percentile } from "../stats.js";
import { costParams } from "./params.js";
import { type CostResult, runCost } from "./run-cost.js";

export async function costSection(quick: boolean): Promise<Section> {
  return costTable(await runCost(costParams(quick)));
}

/** CPU time over the samples, and the share of one core it makes. */
function cpuOver(samples: readonly ProcSample[]): { cpuMs: number; share: number } {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at <= first.at) return { cpuMs: Number.NaN, share: Number.NaN };
  return { cpuMs: last.cpuMs - first.cpuMs, share: (last.cpuMs - first.cpuMs) / (last.at - first.at) };
}

export function costTable(r: CostResult): Section {
  const samples = r.window.samples;
  const first = samples[0];
  const last = samples.at(-1);
  const rss = samples.map((s) => s.rssBytes);
  const { cpuMs, share: idleRate } = cpuOver(samples);
  const ha = cpuOver(r.window.haSamples);
  const haRss = r.window.haSamples.map((s) => s.rssBytes);
  const firsts = r.startups.map((s) => s.firstStateMs);
  const alls = r.startups.map((s) => s.allStatesMs);
  const spread = (values: number[]) =>
    `${duration(percentile(values, 50))} (${duration(Math.min(...values))}–${duration(max(values))})`;
  const minutes = r.window.ms / 60_000;
  const b = r.burst;
  const netCpu = b.cpuMs - idleRate * b.cpuSpanMs;
  return {
    id: "cost",
    title: "Cost (real time)",
    setup:
      `The bridge as users start it (\`node --import tsx src/main.ts\`, its own process) against the ` +
      `simulator in real time and a real Home Assistant ${CURRENT_HOME_ASSISTANT_VERSION} on loopback, ${r.children} children ` +
      `(Léa, Noah, Inès), ${r.params.factsPerHour} extra facts an hour per child, ` +
      `${num(minutes, 0)} min sampled every ${r.params.sampleMs / 1000} s from /proc.`,
    tables: [
      {
        columns: ["", "measured"],
        numeric: true,
        rows: [
          [`start-up: spawn → first state in HA (median of ${firsts.length}, min–max)`, spread(firsts)],
          ["start-up: spawn → status and the 3 children's minutes sensors", spread(alls)],
          [
            "RSS: first sample / mean / max / last",
            [first?.rssBytes ?? Number.NaN, mean(rss), max(rss), last?.rssBytes ?? Number.NaN]
              .map(mebibytes)
              .join(" / "),
          ],
          [
            "RSS of the process tree, max (tsx helpers included)",
            mebibytes(max(samples.map((s) => s.treeRssBytes))),
          ],
          [`CPU time over ${num(minutes, 0)} min`, millis(cpuMs)],
          ["CPU, mean share of one core", percent(idleRate, 2)],
          [
            "for scale, Home Assistant core over the same window: RSS mean / CPU share",
            `${mebibytes(mean(haRss))} / ${percent(ha.share, 2)}`,
          ],
          ["requests a minute (429s)", `${num(r.window.requests / minutes)} (${r.window.rateLimited})`],
          ["facts fired in the window", String(r.window.factsFired)],
          [
            `burst of ${b.facts} facts: first poll that sees them → last event fired (${b.pages} pages)`,
            duration(b.wallMs),
          ],
          ["  wall time per event", millis(b.wallMs / b.facts)],
          ["  CPU time per event (net of the idle rate)", millis(netCpu / b.facts)],
        ],
      },
    ],
    notes: [
      "start-up: from spawning the process (tsx compiles the TypeScript as it loads: " +
        "`npm start` does the same) to Home Assistant's state_changed event (its time_fired) for the first " +
        `entity of the bridge (${[...new Set(r.startups.map((s) => s.firstEntity))].join(", ")}); ` +
        `${firsts.length} fresh processes with fresh data dirs, their states deleted from HA between runs. ` +
        "The first one may pay for a cold tsx cache.",
      "RSS: VmRSS of the bridge's node process; CPU: its user+system time from /proc/<pid>/stat.",
      "Processing per event: the wall time includes Home Assistant firing each event (one websocket " +
        "fire_event per fact, acknowledged before the next, as the bridge delivers in order); the CPU time " +
        "is the bridge's only, from the facts' creation to the last fire, less the idle rate measured over " +
        "the window times that span.",
    ],
  };
}
