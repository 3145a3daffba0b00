import { describe, expect, it } from "vitest";
import { ReadSpells } from "../../src/engine/read-spells.js";
import type { Job } from "../../src/engine/scheduler.js";
import { newTrack } from "../../src/engine/track.js";
import { LogCollector } from "../support/engine-rig.js";

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

function setUp() {
  const logs = new LogCollector();
  const spells = new ReadSpells(logs.logger());
  const lea = newTrack({ id: "lea", firstName: "Léa" }, NOW);
  const noah = newTrack({ id: "noah", firstName: "Noah" }, NOW);
  const job = (kind: "events" | "today", track = lea): Job => ({ kind, due: NOW, track });
  const sources = (pattern: RegExp) =>
    logs.matching(pattern).map((line) => [line.read, line.child ?? null, line.level]);
  return { logs, spells, lea, noah, job, sources };
}

describe("a spell of failures per source of reads", () => {
  it("one child's journal failing for hours: one line when it begins, one when it ends, whatever the others do", () => {
    const { logs, spells, lea, noah, job, sources } = setUp();
    for (let minute = 0; minute < 120; minute++) {
      const now = NOW + minute * MINUTE;
      spells.failed(job("events"), now, "API server error 503 (GET /children/lea/events)");
      // Everything else goes through meanwhile: Léa's today, Noah's reads, the list.
      spells.succeeded(job("today"), now);
      spells.succeeded(job("events", noah), now);
      spells.succeeded(job("today", noah), now);
      spells.succeeded({ kind: "discovery", due: now }, now);
    }
    expect(sources(/cannot be read/)).toEqual([["events", "Léa", 40]]);
    expect(logs.matching(/cannot be read/)[0]?.error).toContain("503");
    expect(lea.eventsSpell.failing).toBe(true);
    expect(lea.todaySpell.failing).toBe(false);

    spells.succeeded(job("events"), NOW + 120 * MINUTE);
    spells.succeeded(job("events"), NOW + 121 * MINUTE);
    expect(sources(/answers again/)).toEqual([["events", "Léa", 30]]);
    // How long and how many, for whoever reads the log.
    expect(logs.matching(/answers again/)[0]).toMatchObject({ failures: 120, failedForSeconds: 120 * 60 });
  });

  it("keeps the list of children, and each kind of a child's reads, apart once the API answers", () => {
    const { spells, noah, job, sources } = setUp();
    spells.failed({ kind: "discovery", due: NOW }, NOW, "cut off");
    spells.failed(job("today", noah), NOW, "cut off");
    // The API answers something: what still fails, fails on its own, and is told by its name.
    spells.succeeded({ kind: "token_check", due: NOW }, NOW + MINUTE);
    spells.failed(job("today", noah), NOW + 2 * MINUTE, "cut off");
    spells.failed(job("events", noah), NOW + 2 * MINUTE, "cut off");
    expect(sources(/cannot be read/)).toEqual([
      ["children", null, 40],
      ["today", "Noah", 40],
      ["events", "Noah", 40],
    ]);
    spells.succeeded(job("today", noah), NOW + 3 * MINUTE);
    spells.succeeded({ kind: "status", due: NOW }, NOW + 3 * MINUTE);
    expect(sources(/answers again/)).toEqual([
      ["children", null, 30],
      ["today", "Noah", 30],
    ]);
    expect(noah.eventsSpell.failing).toBe(true);
  });

  it("an outage of the whole API: one line when it begins and one when it ends, however many children", () => {
    const { logs, spells, lea, noah, job, sources } = setUp();
    for (let minute = 0; minute < 30; minute++) {
      const now = NOW + minute * MINUTE;
      spells.failed({ kind: "discovery", due: now }, now, "connect ECONNREFUSED");
      for (const track of [lea, noah])
        for (const kind of ["events", "today"] as const)
          spells.failed(job(kind, track), now, "connect ECONNREFUSED");
    }
    expect(sources(/cannot be read/)).toEqual([["children", null, 40]]);
    const back = NOW + 30 * MINUTE;
    spells.succeeded({ kind: "discovery", due: back }, back);
    for (const track of [lea, noah])
      for (const kind of ["events", "today"] as const) spells.succeeded(job(kind, track), back);
    expect(sources(/answers again/)).toEqual([["children", null, 30]]);
    expect(logs.matching(/answers again/)[0]).toMatchObject({ failures: 30, failedForSeconds: 30 * 60 });
    expect([lea.eventsSpell, lea.todaySpell, noah.eventsSpell, noah.todaySpell].some((s) => s.failing)).toBe(
      false,
    );
  });

  it("tells a covered read that still fails once the API answers others, and its end", () => {
    const { spells, lea, noah, job, sources } = setUp();
    spells.failed(job("events", lea), NOW, "503");
    spells.failed(job("events", noah), NOW, "503");
    spells.succeeded(job("events", lea), NOW + MINUTE);
    spells.failed(job("events", noah), NOW + MINUTE, "503");
    spells.failed(job("events", noah), NOW + 2 * MINUTE, "503");
    expect(sources(/cannot be read/)).toEqual([
      ["events", "Léa", 40],
      ["events", "Noah", 40],
    ]);
    spells.succeeded(job("events", noah), NOW + 3 * MINUTE);
    expect(sources(/answers again/)).toEqual([
      ["events", "Léa", 30],
      ["events", "Noah", 30],
    ]);
  });
});
