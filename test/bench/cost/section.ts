import { duration, int, mebibytes, millis, num, percent } from "../format.js";
import { shownCommand } from "../real/runtimes.js";
import type { Section } from "../report/section.js";
import { percentile } from "../stats.js";
import { flagsTable } from "./flags.js";
import { LEAN_GOALS, leanGoals } from "./goals.js";
import { costParams } from "./params.js";
import type { ConfigResult } from "./run-config.js";
import { type CostResult, runCost } from "./run-cost.js";
import { aboveIdle, type Usage, usageOf } from "./usage.js";

export async function costSection(quick: boolean, eachFlag = false): Promise<Section> {
  return costTable(await runCost(costParams(quick), eachFlag));
}

const dash = "–";

/** One column of the table: a bridge configuration, an idle node or Home Assistant. */
interface Column {
  label: string;
  config?: ConfigResult;
  usage?: Usage;
  webAssembly?: boolean;
  /** An idle node's boot times (spawn → first line run). */
  bootMs?: number[];
}

export function costTable(r: CostResult): Section {
  const { params } = r;
  const columns: Column[] = [
    ...r.configs.map((c) => ({
      label: c.label,
      config: c,
      webAssembly: c.webAssembly,
      ...(c.window ? { usage: usageOf(c.window.samples) } : {}),
    })),
    ...r.idle.map((i) => ({
      label: `idle node, ${i.runtime.label}`,
      usage: usageOf(i.samples),
      webAssembly: i.webAssembly,
      bootMs: i.bootMs,
    })),
    ...r.idle.map((i) => ({ label: `packages loaded, ${i.runtime.label}`, usage: usageOf(i.loadedSamples) })),
    { label: "Home Assistant core", usage: usageOf(r.haSamples) },
  ];
  const minutes = params.windowMs / 60_000;
  const row = (label: string, goal: string, cell: (c: Column) => string) => [
    label,
    ...columns.map(cell),
    goal,
  ];
  const bridge =
    (cell: (c: ConfigResult) => string, failed = dash) =>
    (column: Column) =>
      column.config === undefined
        ? dash
        : column.config.failure && !column.config.window
          ? failed
          : cell(column.config);
  const used = (cell: (u: Usage) => string) => (column: Column) => (column.usage ? cell(column.usage) : dash);
  /** A bridge's figure above the idle node of its runtime and flags. */
  const aboveIdleOf = (pick: (bytes: ReturnType<typeof aboveIdle>) => number) => (column: Column) => {
    const idle = r.idle.find((i) => i.runtime.label === column.config?.config.runtime.label);
    return column.config && column.usage && idle
      ? mebibytes(pick(aboveIdle(column.usage, usageOf(idle.samples))))
      : dash;
  };
  const spread = (values: number[]) =>
    values.length === 0
      ? dash
      : `${duration(percentile(values, 50))} (${duration(Math.min(...values))}–${duration(Math.max(...values))})`;
  const startup = (pick: (s: ConfigResult["startups"][number]) => number) => (c: ConfigResult) =>
    c.failure ? `never (start ${c.startups.length + 1}, see notes)` : spread(c.startups.map(pick));
  const perEvent = (c: ConfigResult, cpu: boolean) => {
    const b = c.burst;
    if (!b || !c.window) return dash;
    const idleRate = usageOf(c.window.samples).cpuShare;
    return millis(cpu ? (b.cpuMs - idleRate * b.cpuSpanMs) / b.facts : b.wallMs / b.facts);
  };
  const failures = r.configs.filter((c) => c.failure);
  const flagTable = flagsTable(r.configs);

  return {
    id: "cost",
    title: "Cost (real time)",
    goalsLabel: "Lean",
    setup:
      "The compiled bridge as users run it (`npm run build` writes dist/; each run is a process of its " +
      `own) on these runtimes: ${runtimesText(r)}. Against the simulator in real time and a real Home ` +
      `Assistant ${r.homeAssistantVersion} on loopback, 3 children (Léa, Noah, Inès), ` +
      `${params.factsPerHour} extra facts an hour per child. REST: states through Home Assistant's API; ` +
      "MQTT: a real Mosquitto and Home Assistant's MQTT integration set up through its config flow. " +
      `Per configuration: ${params.startupRuns} first starts, then, from ${duration(params.settleMs)} ` +
      `after the last one's first state (the start's tail, params.ts), ${num(minutes, 0)} min sampled every ` +
      `${params.sampleMs / 1000} s from /proc, then a burst of ${params.burst} facts; one configuration ` +
      "after the other, on one Home Assistant.",
    tables: [
      {
        columns: ["", ...columns.map((c) => c.label), "goal"],
        numeric: true,
        rows: [
          row("WebAssembly (undici parses HTTP with it)", dash, (c) =>
            c.webAssembly === undefined ? dash : c.webAssembly ? "yes" : "missing",
          ),
          row("node boot: spawn → first line run (median, min–max)", dash, (c) =>
            c.bootMs ? spread(c.bootMs) : dash,
          ),
          row(
            `start-up: spawn → first state in HA (median of ${params.startupRuns}, min–max)`,
            `≤ ${duration(LEAN_GOALS.firstStateMs)} (REST)`,
            bridge(startup((s) => s.firstStateMs)),
          ),
          row(
            "start-up: spawn → status and Léa's and Noah's minutes hold values",
            dash,
            bridge(startup((s) => s.allStatesMs)),
          ),
          row(
            "anonymous RSS (RssAnon): mean / max",
            dash,
            used((u) => `${mebibytes(u.anonMean)} / ${mebibytes(u.anonMax)}`),
          ),
          row(
            "  above the idle node of the same runtime and flags (mean)",
            `≤ ${mebibytes(LEAN_GOALS.anonAboveIdleBytes)} (REST)`,
            aboveIdleOf((b) => b.anonBytes),
          ),
          row(
            "file-backed RSS (RssFile): mean",
            dash,
            used((u) => mebibytes(u.fileMean)),
          ),
          row(
            "total RSS (VmRSS): mean / max",
            dash,
            used((u) => `${mebibytes(u.rssMean)} / ${mebibytes(u.rssMax)}`),
          ),
          row(
            "  above the idle node of the same runtime and flags (mean)",
            `≤ ${mebibytes(LEAN_GOALS.rssAboveIdleBytes)} (REST)`,
            aboveIdleOf((b) => b.rssBytes),
          ),
          row(
            "CPU time over the window, share of one core",
            `≤ ${percent(LEAN_GOALS.cpuShare, 2)} (REST)`,
            used((u) => `${millis(u.cpuMs)}, ${percent(u.cpuShare, 2)}`),
          ),
          row(
            "requests a minute (429s)",
            dash,
            bridge((c) =>
              c.window
                ? `${num(c.window.requests / (c.window.ms / 60_000))} (${int(c.window.rateLimited)})`
                : dash,
            ),
          ),
          row(
            "facts fired in the window",
            dash,
            bridge((c) => (c.window ? String(c.window.factsFired) : dash)),
          ),
          row(
            `burst of ${params.burst} facts: first poll that sees them → last event fired`,
            dash,
            bridge((c) => (c.burst ? `${duration(c.burst.wallMs)} (${c.burst.pages} pages)` : dash)),
          ),
          row(
            "  wall time per event",
            dash,
            bridge((c) => perEvent(c, false)),
          ),
          row(
            "  CPU time per event (net of the idle rate)",
            dash,
            bridge((c) => perEvent(c, true)),
          ),
        ],
      },
      ...(flagTable ? [flagTable] : []),
    ],
    notes: [
      "start-up: from spawning the process to Home Assistant's state_changed event (its time_fired) that " +
        "first gives an entity of the bridge a value (not unavailable or unknown); each start is a first " +
        "start: a fresh simulator and data dir, the states of the previous bridge deleted (REST) or its " +
        "retained discovery and states cleared on the broker, so that Home Assistant removed its entities " +
        "(MQTT). The second row waits for the status and the minutes of the two readable children (Inès " +
        "has no rules synced: unavailable by design).",
      "RSS from /proc/<pid>/status: RssAnon is the process's own memory (heap, stacks); RssFile is mostly " +
        "the node binary's pages, shared with any other node process; VmRSS is both (and shared memory). " +
        "Means and maxima over the window's samples; the goals judge the means, the steady state. CPU: " +
        "user+system time from /proc/<pid>/stat between the window's first and last samples.",
      "idle node: a node with the runtime's flags that collects its heap ten times (`--expose-gc`, " +
        `gc()), then waits, sampled ${params.idleMs / 1000} s from 12 s after: what any node process ` +
        "costs, and the floor of the lean memory goals: each bridge is judged by what it holds above the " +
        'idle node of its own runtime and flags (the rows "above the idle node"), which its code decides, ' +
        "not by the floor itself. packages loaded: the same idle node after it has imported every package the REST " +
        `bridge runs on (${r.packages.map((p) => `\`${p}\``).join(", ")}), as installed (each file as node ` +
        "loads it, no bundle), and used none: for scale; the bundle the bridge runs as carries only the " +
        "files it uses, minified. node boot: spawning `node -e` that writes one " +
        `line, until the line arrives, ${params.startupRuns} times: no start-up can be shorter. Home ` +
        "Assistant core: sampled over the first configuration's window.",
      "Comparisons (no goal judged): the image's Node with no flag at all, the baseline every flag of the " +
        "CMD must beat, and, with `--each-flag`, the image's Node and flags less one flag at a time: the " +
        "flags table gives what each earns (that run less the image's, window means). Each starts once " +
        "and has no burst.",
      "Processing per event: the wall time includes Home Assistant firing each event (one websocket " +
        "fire_event per fact, acknowledged before the next, as the bridge delivers in order); the CPU time " +
        "is the bridge's only, from the facts' creation to the last fire, less the idle rate measured over " +
        "the window times that span.",
      ...failures.map(
        (c) =>
          `${c.label} published nothing (start ${c.startups.length + 1}: ${c.failure?.reason}), so the rest ` +
          `of its column was not measured. Its last lines: ${c.failure?.lastLines.map((l) => `\`${l}\``).join(" ") || "none"}.`,
      ),
    ],
    goals: leanGoals(r.configs, r.idle),
  };
}

/** Each runtime the configurations ran on, once: its label, command line, version and role. */
function runtimesText(r: CostResult): string {
  const seen = new Map<string, string>();
  for (const { config } of r.configs) {
    const rt = config.runtime;
    seen.set(
      rt.label,
      `${rt.label}: \`${shownCommand(rt, "dist/src/main.js")}\` on ${rt.version}, ${rt.role}`,
    );
  }
  return [...seen.values()].join("; ");
}
