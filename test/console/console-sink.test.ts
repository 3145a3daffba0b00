import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiEvent } from "../../src/api/schemas.js";
import { ConsoleSink, describeEvent, describeToday, stretchText } from "../../src/console/console-sink.js";
import type { DerivedFact } from "../../src/engine/derived-facts.js";
import type { ChildRef, EngineStatus } from "../../src/engine/sink.js";
import { sampleCalmDay, sampleDelivery, sampleToday } from "../support/facts.js";

// The sink of a bridge without Home Assistant (its log) and of the demo when it is not on a
// terminal: one line per thing that changed, in words a parent reads. A repeat would flood a log
// that a bridge writes every few seconds, so what did not change is not written again.

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };

const status: EngineStatus = {
  state: "ok",
  requestsLastMinute: 3,
  budgetPerMinute: 28,
  demandPerMinute: 12,
  stretch: 1,
  todayStretch: 1,
  children: [lea],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: Date.parse("2026-11-21T16:00:00Z"),
};

/** A console sink and the lines it wrote. */
function written(): { sink: ConsoleSink; lines: string[] } {
  const lines: string[] = [];
  return { sink: new ConsoleSink((line) => lines.push(line)), lines };
}

const common = { childId: lea.id, at: "2026-11-21T16:00:00.000Z", day: "2026-11-21" };
const derived = { ...common, derived: true as const, id: "d1" };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ConsoleSink", () => {
  it("names the children it follows, or says it follows none", async () => {
    const { sink, lines } = written();
    await sink.setChildren([lea, noah]);
    await sink.setChildren([]);
    expect(lines).toEqual(["following Léa, Noah", "following no child"]);
  });

  it("writes a child's day when it changed, not when a reading says the same again", async () => {
    const { sink, lines } = written();
    await sink.publishToday(lea, sampleToday);
    await sink.publishToday(lea, sampleToday);
    // Another child's same day is her own line.
    await sink.publishToday(noah, sampleToday);
    await sink.publishToday(lea, { ...sampleToday, points: 8 });
    expect(lines).toEqual([
      "Léa: 25 min left, 7/12 points, streak 4 d, session until 2026-11-21T17:30:00.000Z",
      "Noah: 25 min left, 7/12 points, streak 4 d, session until 2026-11-21T17:30:00.000Z",
      "Léa: 25 min left, 8/12 points, streak 4 d, session until 2026-11-21T17:30:00.000Z",
    ]);
  });

  it("writes a child's day again once she was unavailable, even when it is the same", async () => {
    const { sink, lines } = written();
    await sink.publishToday(lea, sampleToday);
    await sink.markUnavailable(lea, "api_unreachable");
    await sink.publishToday(lea, sampleToday);
    expect(lines).toEqual([
      expect.stringMatching(/^Léa: 25 min left/),
      "Léa: unavailable (API unreachable)",
      expect.stringMatching(/^Léa: 25 min left/),
    ]);
  });

  it("writes every fact with its time, a replayed one marked, and takes each (no receipt)", async () => {
    const { sink, lines } = written();
    const first = sampleDelivery(lea.id, "e1");
    expect(await sink.publishEvent(lea, first)).toEqual({});
    await sink.publishEvent(lea, { ...first, replayed: true });
    expect(lines).toEqual([
      "Léa · cheer: bravo (2026-11-23T18:00:00.000Z)",
      "Léa · cheer: bravo (2026-11-23T18:00:00.000Z, replayed)",
    ]);
  });

  it("writes the status when it changed: the stretch and the last error in words", async () => {
    const { sink, lines } = written();
    await sink.publishStatus(status);
    await sink.publishStatus({ ...status, requestsLastMinute: 9, lastTurnAt: status.lastTurnAt + 5_000 });
    await sink.publishStatus({
      ...status,
      state: "api_unreachable",
      todayStretch: 1.5,
      lastError: "API: 503",
    });
    expect(lines).toEqual(["status ok", "status api_unreachable, today reads stretched ×1.5 (API: 503)"]);
  });

  it("writes to standard output unless told where", async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    await new ConsoleSink().setChildren([lea]);
    expect(out).toEqual(["following Léa\n"]);
  });

  it("is a sink that is always ready, in no time zone of its own", async () => {
    const { sink, lines } = written();
    await sink.open();
    await sink.whenReady();
    expect(sink.ready).toBe(true);
    expect(sink.timeZone()).toBeUndefined();
    await sink.close();
    expect(lines).toEqual([]);
  });
});

describe("describeToday", () => {
  it("says the other household's day is no day of minutes here", () => {
    expect(describeToday(sampleCalmDay)).toBe("the other household's day (0 min)");
  });

  it("leaves out the session when none runs, or a running one has no end", () => {
    expect(describeToday({ ...sampleToday, session: null })).toBe("25 min left, 7/12 points, streak 4 d");
    expect(describeToday({ ...sampleToday, session: { running: true, endsAt: null } })).toBe(
      "25 min left, 7/12 points, streak 4 d",
    );
  });
});

describe("describeEvent", () => {
  const journal: Array<[ApiEvent, string]> = [
    [
      { ...common, id: "e1", type: "behavior_validated", behaviorId: "b1", label: "Make the bed" },
      "behavior validated: Make the bed",
    ],
    [
      { ...common, id: "e2", type: "behavior_validated", behaviorId: null, label: null },
      "behavior validated: (no label)",
    ],
    [{ ...common, id: "e3", type: "session_started", minutes: 20 }, "session started: 20 min"],
    [
      { ...common, id: "e4", type: "menu_item_consumed", menuItemId: "m1", label: "Tablet" },
      "menu item used: Tablet",
    ],
    [
      { ...common, id: "e5", type: "menu_item_consumed", menuItemId: null, label: null },
      "menu item used: (no label)",
    ],
    [{ ...common, id: "e6", type: "cheer_sent", cheer: "super" }, "cheer: super"],
  ];
  it.each(journal)("a journal fact reads as its kind and subject (%#)", (event, text) => {
    expect(describeEvent(event)).toBe(text);
  });

  const worked: Array<[DerivedFact, string]> = [
    [
      { ...derived, type: "behavior_declared", behaviorId: "b2", label: "Homework", mandatory: true },
      "behavior declared, to validate in the app: Homework",
    ],
    [
      { ...derived, type: "behavior_rejected", behaviorId: "b2", label: "Homework", mandatory: true },
      "behavior rejected: Homework",
    ],
    [{ ...derived, type: "minutes_low", minutesRemaining: 4, threshold: 5 }, "4 min left (below 5)"],
    [{ ...derived, type: "session_ended", sessionMinutes: 20 }, "session ended"],
    [{ ...derived, type: "mandatory_done" }, "the essentials are done"],
    [{ ...derived, type: "perfect_day" }, "a perfect day"],
    [{ ...derived, type: "streak_extended", streak: 5, previousStreak: 4 }, "streak: 5 days"],
    [{ ...derived, type: "streak_broken", streak: 0, previousStreak: 4 }, "streak broken (was 4 days)"],
    [{ ...derived, type: "next_tier_reached", points: 10, unitsGain: 15 }, "next tier reached at 10 points"],
    [{ ...derived, type: "day_started", period: "school", minutesUnlocked: 30 }, "a new day"],
  ];
  it.each(worked)("a derived fact reads as its kind and subject (%#)", (event, text) => {
    expect(describeEvent(event)).toBe(text);
  });
});

describe("stretchText", () => {
  it("says nothing on cadence, the today reads alone when only they stretch, both when the journal does", () => {
    expect(stretchText(status)).toBe("");
    expect(stretchText({ ...status, todayStretch: 2 })).toBe("today reads stretched ×2");
    expect(stretchText({ ...status, stretch: 1.2, todayStretch: 2 })).toBe(
      "journal polls stretched ×1.2, today reads ×2",
    );
  });
});
