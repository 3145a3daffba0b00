import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { busiestMinute } from "../support/busiest-minute.js";
import { budgetGoals, budgetVerdict } from "./budget/goals.js";
import { idealBudget } from "./budget/ideal.js";
import { measureBudget, todayAge } from "./budget/measure.js";
import { bestTimeFor, minimumPages } from "./catchup/section.js";
import { BenchUsageError, isFullRun, parseBenchArgs } from "./cli-args.js";
import { bridgeConfigs } from "./cost/configs.js";
import { FLAG_FLOOR_BYTES, flagEarnings, flagsTable } from "./cost/flags.js";
import { LEAN_GOALS, leanGoals } from "./cost/goals.js";
import type { ConfigResult } from "./cost/run-config.js";
import { usageOf } from "./cost/usage.js";
import { deliveryGoals } from "./delivery/goals.js";
import type { DeliveryResult, ModeResult } from "./delivery/run-delivery.js";
import { atMost, everyOne, withinOfBest } from "./goals/goal.js";
import { goalsSection } from "./goals/summary.js";
import { parseResidentMemory } from "./real/proc-stats.js";
import {
  commandFor,
  IMAGE_NODE_VERSION,
  imageFlags,
  imageFromRelease,
  type NodeRuntime,
  startFlags,
} from "./real/runtimes.js";
import { markdownTable } from "./report/markdown.js";
import { replaceReadmeBlock } from "./report/readme.js";
import { BRIDGE_BUDGET_PER_MINUTE, restartsGoals } from "./restarts/goals.js";
import { measureRestarts } from "./restarts/measure.js";
import type { RestartsObservation } from "./restarts/run-restarts.js";
import { clientOf, measureToken } from "./side-by-side/measure.js";
import { bridgePastItsStart, refusalsOf, restScans } from "./side-by-side/refusals.js";
import type { SideObservation } from "./side-by-side/run-side.js";
import { percentile } from "./stats.js";

// The benchmarks' definitions, checked on hand-made figures (no timing here: `npm run bench` measures).

describe("best the budget allows", () => {
  it("keeps the nominal intervals while 3 a minute per child fit in 30, stretches both beyond", () => {
    expect(idealBudget(9)).toMatchObject({
      stretch: 1,
      perMinute: 27,
      eventDelayMean: 15_000,
      todayAgeMean: 30_000,
    });
    expect(idealBudget(20)).toMatchObject({ stretch: 2, perMinute: 30, eventsIntervalMs: 60_000 });
    expect(idealBudget(30).eventDelayP95).toBeCloseTo(85_500);
  });

  it("takes the earlier of the next events poll and the next today read for a fact's way into today", () => {
    // min(U[0,30], U[0,60]): mean 12.5 s, p95 27.25 s.
    expect(idealBudget(1).todayLagMean).toBeCloseTo(12_500);
    expect(idealBudget(1).todayLagP95).toBeCloseTo(27_252, -1);
  });
});

describe("budget measures", () => {
  it("counts requests by sliding minute and times facts to their delivery and to the next today", () => {
    const m = measureBudget({
      start: 0,
      end: 120_000,
      requests: [0, 10_000, 59_999, 60_000, 61_000].map((at) => ({ at, status: at === 61_000 ? 429 : 200 })),
      facts: [
        { childId: "a", id: "f1", recordedAt: 5_000 },
        { childId: "a", id: "f2", recordedAt: 50_000 },
        { childId: "b", id: "f3", recordedAt: 70_000 },
      ],
      deliveredAt: new Map([
        ["f1", 10_000],
        ["f2", 70_000],
      ]),
      todays: [
        { childId: "a", at: 0 },
        { childId: "a", at: 20_000 },
        { childId: "a", at: 60_000 },
      ],
    });
    expect(m).toMatchObject({ requests: 5, perMinuteMax: 4, rateLimited: 1, facts: 3, undelivered: 1 });
    expect(m.eventDelay.mean).toBe(12_500);
    // f1 → today at 20 s, f2 → at 60 s; child b has no today at all.
    expect(m.todayLag).toMatchObject({ n: 2, mean: 12_500 });
  });

  it("averages the age of the today reading over time", () => {
    // Readings every 60 s: age runs 0..60 s, mean 30 s, older than 57 s 5 % of the time.
    const age = todayAge(new Map([["a", [0, 60_000, 120_000]]]), 180_000);
    expect(age.mean).toBeCloseTo(30_000);
    expect(age.p95).toBeCloseTo(57_000, -2);
  });
});

describe("goals", () => {
  it("judges a figure within a tolerance of the best by its ratio, and a bound by the figure", () => {
    const near = withinOfBest("p95", 29_000, 27_000, 0.1, String);
    expect(near).toMatchObject({ met: true, target: "≤ 1.10 × best" });
    expect(near.ratio).toBeCloseTo(1.074, 3);
    expect(withinOfBest("p95", 30_000, 27_000, 0.1, String).met).toBe(false);
    expect(atMost("429s", 1, 1, String, 0)).toMatchObject({ met: true, best: "0", target: "≤ 1" });
    expect(atMost("429s", 2, 1, String).met).toBe(false);
    expect(everyOne("facts", 12, 12).met).toBe(true);
    expect(everyOne("facts", 11, 12).met).toBe(false);
  });

  it("never lets a figure that was not measured pass", () => {
    expect(withinOfBest("p95", Number.NaN, 27_000, 0.1, String).met).toBe(false);
    expect(atMost("RSS", Number.NaN, 15, String).met).toBe(false);
    expect(everyOne("facts", 0, 0).met).toBe(false);
  });

  it("judges fresh at saturation at 10, 12, 20 and 30 children only: today p95 within 10 %, events 5 %", () => {
    const result = (children: number, todayP95: number, eventP95: number) =>
      ({
        children,
        metrics: { todayLag: { p95: todayP95 }, eventDelay: { p95: eventP95 } },
      }) as unknown as Parameters<typeof budgetGoals>[0][number];
    const best10 = idealBudget(10);
    const goals = budgetGoals([
      result(3, 1_000_000, 1_000_000),
      result(10, best10.todayLagP95 * 1.1, best10.eventDelayP95 * 1.06),
    ]);
    expect(goals.map((g) => [g.what, g.met])).toEqual([
      ["today fact age p95, 10 children", true],
      ["event delay p95, 10 children", false],
    ]);
    expect(budgetVerdict([result(10, best10.todayLagP95, best10.eventDelayP95)])).toMatch(
      /10 children today ×1\.00, events ×1\.00, met\.$/,
    );
  });

  it("gathers every section's goals into one table that counts those met", () => {
    const section = (id: string, goals: ReturnType<typeof atMost>[]) => ({
      id,
      title: id,
      setup: "",
      tables: [],
      notes: [],
      goals,
    });
    const table = goalsSection([
      section("a", [atMost("x", 1, 2, String)]),
      section("b", [atMost("y", 3, 2, String)]),
    ])?.tables[0];
    expect(table?.rows.map((r) => [r[0], r.at(-1)])).toEqual([
      ["a: x", "met"],
      ["b: y", "not met"],
    ]);
    expect(table?.footnote).toBe("1 of 2 goals met.");
    expect(goalsSection([section("c", [])])).toBeUndefined();
  });
});

describe("lean", () => {
  const MiB = 1_048_576;

  it("reads anonymous, file-backed and total resident memory from /proc/<pid>/status", () => {
    const status = "Name:\tnode\nVmRSS:\t   81920 kB\nRssAnon:\t   30720 kB\nRssFile:\t   51200 kB\n";
    expect(parseResidentMemory(status)).toEqual({
      rssBytes: 80 * MiB,
      anonBytes: 30 * MiB,
      fileBytes: 50 * MiB,
    });
  });

  it("runs the image's Node line with the flags of the Dockerfile's CMD", async () => {
    const dockerfile = await readFile(new URL("../../addon/Dockerfile", import.meta.url), "utf8");
    const major = (release: string | undefined) => release?.split(".")[0];
    expect(major(IMAGE_NODE_VERSION)).toBe(major(imageFromRelease(dockerfile)));
    expect(imageFromRelease("FROM node:26.13-alpine3.23 AS build\n")).toBe("26.13");
    // CI's second leg runs the suite on the same release.
    const ci = await readFile(new URL("../../.ci/run", import.meta.url), "utf8");
    expect(ci).toContain(`--package=node@${IMAGE_NODE_VERSION} -- npm test`);
    expect(imageFlags('FROM x\nCMD ["node", "--a=1", "--b", "dist/src/main.js"]\n')).toEqual([
      "--a=1",
      "--b",
    ]);
  });

  it("runs the machine's Node with the flags of npm start", () => {
    expect(startFlags(JSON.stringify({ scripts: { start: "node --a=1 --b dist/src/main.js" } }))).toEqual([
      "--a=1",
      "--b",
    ]);
    expect(() => startFlags(JSON.stringify({ scripts: { start: "tsx src/main.ts" } }))).toThrow(
      /does not run node/,
    );
  });

  it("measures REST on the three runtimes and on the image's Node with no flags, MQTT on two, and each flag left out when asked", () => {
    const runtime = (label: string, flags: string[], version = "v0"): NodeRuntime => ({
      label,
      execPath: "node",
      version,
      flags,
      role: "",
    });
    const machine = runtime("Node 20", []);
    const image = runtime("Node 26, image flags", ["--max-semi-space-size=1", "--liftoff-only"], "v26.10.0");
    const labels = (eachFlag: boolean) =>
      bridgeConfigs(machine, image, runtime("Node 24 on musl, image flags", image.flags), eachFlag).map(
        (c) => [`${c.mode} ${c.runtime.label} ${c.runtime.flags.join(" ")}`.trim(), c.comparison ?? false],
      );
    expect(labels(false)).toEqual([
      ["rest Node 20", false],
      ["rest Node 26, image flags --max-semi-space-size=1 --liftoff-only", false],
      ["rest Node 24 on musl, image flags --max-semi-space-size=1 --liftoff-only", false],
      ["rest Node 26, no flags", true],
      ["mqtt Node 20", false],
      ["mqtt Node 26, image flags --max-semi-space-size=1 --liftoff-only", false],
    ]);
    expect(labels(true).slice(3, 6)).toEqual([
      ["rest Node 26, no flags", true],
      ["rest Node 26, image flags less --max-semi-space-size=1 --liftoff-only", true],
      ["rest Node 26, image flags less --liftoff-only --max-semi-space-size=1", true],
    ]);
    expect(bridgeConfigs(machine, image, image, true)[4]?.leftOut).toEqual({
      of: "Node 26, image flags",
      flags: ["--max-semi-space-size=1"],
    });
  });

  it("runs a musl build through its loader, the node binary first, and any other node directly", () => {
    const node = { label: "n", execPath: "/n/node", version: "v0", flags: ["--a"], role: "" };
    expect(commandFor(node, ["main.js"])).toEqual({ command: "/n/node", args: ["--a", "main.js"] });
    expect(commandFor({ ...node, loader: "/m/libc.so" }, ["main.js"])).toEqual({
      command: "/m/libc.so",
      args: ["/n/node", "--a", "main.js"],
    });
  });

  it("takes the CPU share between the first and the last sample, and the means of each memory kind", () => {
    const sample = (at: number, cpuMs: number, anon: number) => ({
      at,
      cpuMs,
      anonBytes: anon,
      fileBytes: 40,
      rssBytes: anon + 40,
    });
    const usage = usageOf([sample(0, 1_000, 10), sample(60_000, 1_060, 20), sample(120_000, 1_120, 30)]);
    expect(usage).toMatchObject({
      anonMean: 20,
      anonMax: 30,
      fileMean: 40,
      rssMean: 60,
      rssMax: 70,
      cpuMs: 120,
    });
    expect(usage.cpuShare).toBeCloseTo(0.001);
  });

  it("judges the REST configurations users run only, and a bridge that never published meets none", () => {
    const failed = {
      label: "REST, Node 26, image flags",
      config: { mode: "rest" },
      webAssembly: false,
      startups: [],
      failure: { reason: "timed out", lastLines: [] },
    } as unknown as ConfigResult;
    const mqtt = { ...failed, label: "MQTT", config: { mode: "mqtt" } } as unknown as ConfigResult;
    const compared = { ...failed, config: { mode: "rest", comparison: true } } as unknown as ConfigResult;
    const goals = leanGoals([failed, mqtt, compared], []);
    expect(goals.map((g) => [g.measured, g.met, g.ratio])).toEqual([
      ["never published", false, Number.NaN],
      ["not measured", false, Number.NaN],
      ["not measured", false, Number.NaN],
      ["not measured", false, Number.NaN],
    ]);
    expect(LEAN_GOALS).toEqual({
      anonAboveIdleBytes: 10 * MiB,
      rssAboveIdleBytes: 18 * MiB,
      firstStateMs: 500,
      cpuShare: 0.001,
    });
  });

  it("judges memory above an idle node of the same runtime and flags, never the packages as installed", () => {
    const runtime = { label: "Node 20", execPath: "node", version: "v0", flags: [], role: "" };
    const sample = (at: number, cpuMs: number, anon: number, file: number) => ({
      at,
      cpuMs,
      anonBytes: anon,
      fileBytes: file,
      rssBytes: anon + file,
    });
    const measured = {
      label: "REST, Node 20",
      config: { mode: "rest", runtime },
      webAssembly: true,
      startups: [{ firstStateMs: 300 }, { firstStateMs: 500 }, { firstStateMs: 400 }],
      window: { samples: [sample(0, 0, 12 * MiB, 40 * MiB), sample(100_000, 50, 12 * MiB, 40 * MiB)] },
    } as unknown as ConfigResult;
    const idle = {
      runtime,
      webAssembly: true,
      samples: [sample(0, 0, 6 * MiB, 34 * MiB), sample(10_000, 1, 6 * MiB, 34 * MiB)],
      loadedSamples: [sample(0, 0, 8 * MiB, 40 * MiB), sample(10_000, 1, 8 * MiB, 40 * MiB)],
      bootMs: [40, 50, 60],
    };
    const goals = leanGoals([measured], [idle]);
    expect(goals.map((g) => [g.what, g.measured, g.best, g.ratio, g.met])).toEqual([
      ["start to first state, REST, Node 20", "0.4 s", "0.1 s", 8, true],
      ["anonymous RSS above an idle node, REST, Node 20", "6.0 MiB", "6.0 MiB", 1, true],
      ["total RSS above an idle node, REST, Node 20", "12.0 MiB", "40.0 MiB", 12 / 40, true],
      ["CPU, REST, Node 20", "0.05 %", "0.01 %", 5, true],
    ]);
    // 11 MiB above the idle node's 6: over the 10 MiB goal, whatever the total.
    const heavier = {
      ...measured,
      window: { samples: [sample(0, 0, 17 * MiB, 34 * MiB), sample(100_000, 50, 17 * MiB, 34 * MiB)] },
    } as unknown as ConfigResult;
    expect(leanGoals([heavier], [idle]).map((g) => g.met)).toEqual([true, false, true, true]);
    // No idle node measured: no increment, so no memory goal met.
    expect(leanGoals([measured], []).map((g) => g.met)).toEqual([true, false, false, true]);
  });

  it("tells what the flags earn: the runs with flags left out, less the image's", () => {
    const runtime = (label: string, flags: string[]) => ({
      label,
      execPath: "n",
      version: "v26",
      flags,
      role: "",
    });
    const window = (anon: number, file: number) => ({
      samples: [0, 10_000].map((at) => ({
        at,
        cpuMs: 0,
        anonBytes: anon,
        fileBytes: file,
        rssBytes: anon + file,
      })),
    });
    const result = (config: ConfigResult["config"], w: ReturnType<typeof window> | undefined): ConfigResult =>
      ({ label: config.runtime.label, config, webAssembly: true, startups: [], window: w }) as ConfigResult;
    const image = runtime("Node 26, image flags", ["--a", "--b"]);
    const configs = [
      result({ mode: "rest", runtime: image }, window(10 * MiB, 40 * MiB)),
      result(
        {
          mode: "rest",
          runtime: runtime("Node 26, no flags", []),
          comparison: true,
          leftOut: { of: image.label, flags: ["--a", "--b"] },
        },
        window(14 * MiB, 41 * MiB),
      ),
      result(
        {
          mode: "rest",
          runtime: runtime("less --a", ["--b"]),
          comparison: true,
          leftOut: { of: image.label, flags: ["--a"] },
        },
        window(12.5 * MiB, 39.5 * MiB),
      ),
      result(
        {
          mode: "rest",
          runtime: runtime("less --b", ["--a"]),
          comparison: true,
          leftOut: { of: image.label, flags: ["--b"] },
        },
        window(10.5 * MiB, 40.25 * MiB),
      ),
      result(
        {
          mode: "rest",
          runtime: runtime("less --c", ["--a"]),
          comparison: true,
          leftOut: { of: image.label, flags: ["--c"] },
        },
        undefined,
      ),
    ];
    expect(
      flagEarnings(configs).map((e) => [e.flags.join(" "), e.all, e.rssBytes / MiB, e.earnsItsPlace]),
    ).toEqual([
      ["--a --b", true, 5, true],
      ["--a", false, 2, true],
      ["--b", false, 0.75, false],
      ["--c", false, Number.NaN, false],
    ]);
    expect(FLAG_FLOOR_BYTES).toBe(MiB);
    expect(flagsTable(configs)?.rows.map((row) => [row[0], row[3], row[4]])).toEqual([
      ["all of them (2)", "5.0 MiB", "–"],
      ["--a", "2.0 MiB", "earns its place"],
      ["--b", "0.8 MiB", "goes"],
      ["--c", "–", "not measured"],
    ]);
    expect(flagsTable(configs.slice(0, 1))).toBeUndefined();
  });
});

describe("restarts", () => {
  const observation = (statuses: number[], paths: string[]) =>
    ({
      params: { kills: 5, lifeMs: 9_000, observeMs: 105_000 },
      runtime: { label: "Node 20", version: "v20" },
      spawnedAt: [0, 10_000, 20_000, 30_000, 40_000, 50_000],
      lastKillAt: 49_000,
      end: 105_000,
      requests: statuses.map((status, i) => ({ at: i * 2_000, status, path: paths[i % paths.length] })),
      children: ["a", "b"],
      lastExit: 0,
    }) as RestartsObservation;

  it("counts each start's requests, the 429s and the busiest 60 s, and whether every child was read", () => {
    const m = measureRestarts(
      observation([200, 200, 200, 200, 200, 200, 429], ["/children", "/children/a/today"]),
    );
    expect(m).toMatchObject({
      killsSpanMs: 49_000,
      requests: 7,
      perStart: [5, 2, 0, 0, 0, 0],
      rateLimited: 1,
      busiestMinute: 7,
      childrenRead: 1,
      children: 2,
    });
  });

  it("meets its goals with no 429, the bridge's budget in any 60 s and every child read", () => {
    const calm = measureRestarts(observation([200, 200], ["/children/a/today", "/children/b/today"]));
    expect(restartsGoals(calm).map((g) => g.met)).toEqual([true, true, true]);
    expect(BRIDGE_BUDGET_PER_MINUTE).toBe(28);
    const unread = measureRestarts(observation([200, 429], ["/children/a/today"]));
    expect(restartsGoals(unread).map((g) => g.met)).toEqual([false, true, false]);
  });
});

describe("catch-up minimum", () => {
  it("reads full pages then one short or empty page per child, at 30 a minute", () => {
    expect(minimumPages([3334, 3333, 3333])).toBe(102);
    expect(minimumPages([200])).toBe(3);
    expect(bestTimeFor(30)).toBe(0);
    expect(bestTimeFor(31)).toBe(60_000);
  });
});

describe("helpers", () => {
  it("takes nearest-rank percentiles and counts a sliding window half-open", () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([5, 1, 3], 50)).toBe(3);
    expect(busiestMinute([0, 59_999, 60_000])).toBe(2);
  });

  it("tells Home Assistant's requests from the bridge's by User-Agent", () => {
    expect(clientOf("HomeAssistant/2024.3.3 httpx/0.27.0 Python/3.11")).toBe("rest");
    expect(clientOf(undefined)).toBe("bridge");
  });

  it("counts the token's requests of both clients together, in the window only", () => {
    const o = {
      window: { start: 1_000, end: 121_000, drainEnd: 200_000 },
      requests: [0, 1_000, 2_000, 30_000, 61_000, 130_000].map((at, i) => ({
        at,
        status: i === 3 ? 429 : 200,
        userAgent: i % 2 === 0 ? undefined : "HomeAssistant/2024.3.3",
      })),
    } as unknown as SideObservation;
    expect(measureToken(o)).toEqual({ perMinuteMax: 3, rateLimited: 1 });
  });

  it("tells, for each 429, what each client had admitted in the 60 s before; groups rest's requests into scans", () => {
    const rest = "HomeAssistant/2024.3.3 httpx/0.27.0 Python/3.11";
    const requests = [
      { at: 0, status: 200, userAgent: rest },
      { at: 10, status: 200, userAgent: rest },
      { at: 20_000, status: 200, userAgent: undefined },
      { at: 59_500, status: 429, userAgent: rest },
      { at: 60_005, status: 429, userAgent: undefined },
    ] as unknown as SideObservation["requests"];
    expect(refusalsOf(requests)).toEqual([
      { at: 59_500, client: "rest", admitted: { bridge: 1, rest: 2 } },
      // The first rest request has left the window (half-open, as the API counts).
      { at: 60_005, client: "bridge", admitted: { bridge: 1, rest: 1 } },
    ]);
    expect(restScans(requests)).toEqual([
      { at: 0, requests: 2, spreadMs: 10, sincePreviousMs: undefined },
      { at: 59_500, requests: 1, spreadMs: 0, sincePreviousMs: 59_500 },
    ]);
  });

  it("tells the bridge past its start once it has read every child's journal since its last 429", () => {
    const rest = "HomeAssistant/2024.3.3 httpx/0.27.0 Python/3.11";
    const read = (at: number, path: string, status = 200, userAgent?: string) => ({
      at,
      path,
      status,
      userAgent,
    });
    const requests = [
      read(0, "/children/a/events?since=x"),
      read(1, "/children/a/today"),
      read(2, "/children/b/events?since=x", 429),
      read(3, "/children/b/events?since=x", 200, rest),
      read(4, "/children/b/today"),
    ] as unknown as SideObservation["requests"];
    // b's journal: refused to the bridge, read by rest only; a's: read before the 429.
    expect(bridgePastItsStart(requests, ["a", "b"])).toBe(false);
    requests.push(read(5, "/children/b/events?since=y") as unknown as SideObservation["requests"][number]);
    expect(bridgePastItsStart(requests, ["a", "b"])).toBe(false);
    requests.push(read(6, "/children/a/events?since=y") as unknown as SideObservation["requests"][number]);
    expect(bridgePastItsStart(requests, ["a", "b"])).toBe(true);
    // Without any 429, the first reads count.
    expect(bridgePastItsStart(requests.slice(0, 2), ["a"])).toBe(true);
  });

  it("writes markdown tables with escaped pipes and right-aligned numbers", () => {
    expect(markdownTable({ columns: ["", "n"], rows: [["a|b", "1"]], numeric: true })).toBe(
      "|  | n |\n| --- | ---: |\n| a\\|b | 1 |",
    );
  });

  it("replaces only what lies between the README markers, and leaves a README without them alone", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-bench-readme-"));
    const withMarkers = join(dir, "with.md");
    await writeFile(withMarkers, "# T\n<!-- bench:start -->\nold\n<!-- bench:end -->\nafter\n");
    expect(await replaceReadmeBlock(withMarkers, "new table")).toBe(true);
    expect(await readFile(withMarkers, "utf8")).toBe(
      "# T\n<!-- bench:start -->\nnew table\n<!-- bench:end -->\nafter\n",
    );
    const without = join(dir, "without.md");
    await writeFile(without, "# T\n");
    expect(await replaceReadmeBlock(without, "new table")).toBe(false);
    expect(await readFile(without, "utf8")).toBe("# T\n");
  });

  it("parses --only and --quick; only a full run writes the committed results", () => {
    expect(isFullRun(parseBenchArgs([]))).toBe(true);
    expect(parseBenchArgs(["--only", "budget,catchup", "--quick"])).toMatchObject({
      sections: ["budget", "catchup"],
      quick: true,
    });
    expect(isFullRun(parseBenchArgs(["--only", "cost"]))).toBe(false);
    expect(parseBenchArgs(["--only", "cost", "--each-flag"])).toMatchObject({
      sections: ["cost"],
      eachFlag: true,
    });
    expect(parseBenchArgs([]).eachFlag).toBe(false);
    expect(() => parseBenchArgs(["--only", "speed"])).toThrow(BenchUsageError);
  });
});

describe("delivery goals (issue 48)", () => {
  const mode = (
    m: "rest" | "mqtt",
    burstMs: number,
    drainMs: number,
    catchup: Partial<ModeResult["catchup"]> = {},
  ) =>
    ({
      mode: m,
      burst: { facts: 1_000, pages: 11, wallMs: burstMs, cpuMs: 1, cpuSpanMs: 1 },
      catchup: {
        facts: 10_000,
        drainMs,
        delivered: 10_000,
        duplicates: 0,
        inOrder: true,
        pages: 103,
        ...catchup,
      },
    }) satisfies ModeResult;
  const result = (modes: ModeResult[]): DeliveryResult => ({
    params: { burst: 1_000, catchupFacts: 10_000, catchupChildren: 3 },
    homeAssistantVersion: "2026.11.0",
    modes,
  });

  it("judges MQTT against REST: 1.5 × a fact in the burst, 1.1 × the catch-up's drain", () => {
    const met = deliveryGoals(result([mode("rest", 5_000, 210_000), mode("mqtt", 7_400, 230_000)]));
    expect(met.map((g) => g.met)).toEqual([true, true, true, true]);
    expect(met[0]?.ratio).toBeCloseTo(1.48, 2);
    const slow = deliveryGoals(result([mode("rest", 5_000, 210_000), mode("mqtt", 54_000, 540_000)]));
    expect(slow.slice(0, 2).map((g) => g.met)).toEqual([false, false]);
  });

  it("fails a catch-up that lost, repeated or reordered a fact, and a mode never measured", () => {
    const goals = deliveryGoals(
      result([
        mode("rest", 5_000, 210_000, { duplicates: 1 }),
        mode("mqtt", 5_000, 210_000, { inOrder: false, delivered: 9_999 }),
      ]),
    );
    expect(goals.slice(2).map((g) => g.met)).toEqual([false, false]);
    expect(
      deliveryGoals(result([mode("rest", 5_000, 210_000)]))
        .slice(0, 2)
        .map((g) => g.met),
    ).toEqual([false, false]);
  });
});
