import { describe, expect, it } from "vitest";
import type { ApiEvent, Today } from "../../src/api/schemas.js";
import { type EventRow, type LiveFrame, LiveModel } from "../../src/console/live-model.js";
import { renderLiveView, TABLE_HEAD } from "../../src/console/live-render.js";
import type { ChildRef, EngineStatus } from "../../src/engine/sink.js";

const ZONE = "Europe/Paris";
/** Thursday 15 January 2026, 17:00 in Paris (+01:00). */
const NOW = Date.parse("2026-01-15T16:00:00Z");

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };
const ines: ChildRef = { id: "c-ines", firstName: "Inès" };

function ownDay(overrides: Partial<Today & { isMyDay: true }> = {}): Today {
  return {
    date: "2026-01-15",
    isMyDay: true,
    period: "school",
    points: 5,
    maxPoints: 8,
    minutesUnlocked: 30,
    minutesConsumed: 5,
    minutesRemaining: 25,
    consumableToday: true,
    mandatoryOk: true,
    perfect: false,
    frozen: false,
    joker: false,
    nextTier: { pointsNeeded: 1, unitsGain: 15 },
    behaviors: [],
    session: { running: true, endsAt: "2026-01-15T16:20:00.000Z", minutes: 20 },
    streakDays: 3,
    ...overrides,
  };
}

const calmDay: Today = { date: "2026-01-15", isMyDay: false };

const status: EngineStatus = {
  state: "ok",
  requestsLastMinute: 27,
  budgetPerMinute: 28,
  demandPerMinute: 30.1,
  stretch: 1.07,
  todayStretch: 1.6,
  children: [lea, noah, ines],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: Date.parse("2026-01-15T16:00:00Z"),
};

function cheer(child: ChildRef, id: string, at: string): ApiEvent {
  return { id, at, day: at.slice(0, 10), childId: child.id, type: "cheer_sent", cheer: "bravo" };
}

/** The cells of the table row of a child, trimmed. */
function rowOf(text: string, name: string): string[] {
  const line = text.split("\n").find((l) => l.startsWith(`│ ${name} `));
  if (!line) throw new Error(`no row for ${name} in:\n${text}`);
  return line
    .split("│")
    .slice(1, -1)
    .map((cell) => cell.trim());
}

function eventLines(text: string): string[] {
  const lines = text.split("\n");
  return lines.slice(lines.indexOf("Latest events (newest first):") + 1);
}

const frame = (overrides: Partial<LiveFrame> = {}): LiveFrame => ({
  children: [
    { child: lea, today: ownDay(), unavailable: null },
    { child: noah, today: calmDay, unavailable: null },
    { child: ines, today: null, unavailable: "no rules synced yet" },
  ],
  status,
  events: [],
  ...overrides,
});

describe("renderLiveView", () => {
  it("draws one row per child under the six columns, in the household's zone", () => {
    const text = renderLiveView(frame(), { now: NOW, timeZone: ZONE });
    expect(rowOf(text, "child")).toEqual([...TABLE_HEAD]);
    expect(TABLE_HEAD).toEqual(["child", "minutes left", "points", "streak", "session ends", "my day"]);
    // 16:20Z is 17:20 in Paris, still ahead of 17:00.
    expect(rowOf(text, "Léa")).toEqual(["Léa", "25", "5/8", "3 d", "17:20", "yes"]);
    expect(text).toContain("Household time: Thu 15 Jan 17:00 (Europe/Paris)");
  });

  it("shows the other household's day as 0 minutes and my day: no", () => {
    const text = renderLiveView(frame(), { now: NOW, timeZone: ZONE });
    expect(rowOf(text, "Noah")).toEqual(["Noah", "0", "—", "—", "—", "no"]);
  });

  it("shows why a child is unavailable, and that a child not read yet is waited for", () => {
    const text = renderLiveView(
      frame({
        children: [
          { child: ines, today: null, unavailable: "no rules synced yet" },
          { child: lea, today: null, unavailable: null },
        ],
      }),
      { now: NOW, timeZone: ZONE },
    );
    expect(rowOf(text, "Inès")).toEqual(["Inès", "unavailable: no rules synced yet"]);
    expect(rowOf(text, "Léa")).toEqual(["Léa", "waiting for the first reading…"]);
  });

  it("says a session has ended when the household's clock has passed its end before the next reading", () => {
    const later = Date.parse("2026-01-15T16:25:00Z");
    const text = renderLiveView(frame(), { now: later, timeZone: ZONE });
    expect(rowOf(text, "Léa")[4]).toBe("17:20 (ended)");
    const idle = renderLiveView(
      frame({
        children: [
          { child: lea, today: ownDay({ session: { running: false, endsAt: null } }), unavailable: null },
        ],
      }),
      { now: NOW, timeZone: ZONE },
    );
    expect(rowOf(idle, "Léa")[4]).toBe("—");
  });

  it("states the bridge's status: state, requests / budget, stretch, errors", () => {
    expect(renderLiveView(frame(), { now: NOW, timeZone: ZONE })).toContain(
      "Bridge: ok · 27/28 requests in the last minute · journal polls stretched ×1.07, today reads ×1.6",
    );
    const failing = {
      ...status,
      state: "api_unreachable" as const,
      stretch: 1,
      todayStretch: 1,
      lastError: "timeout",
    };
    expect(renderLiveView(frame({ status: failing }), { now: NOW, timeZone: ZONE })).toContain(
      "Bridge: api_unreachable · 27/28 requests in the last minute · on cadence · last error: timeout",
    );
    expect(renderLiveView(frame({ status: null }), { now: NOW, timeZone: ZONE })).toContain(
      "Bridge: starting",
    );
  });

  it("lists the latest events newest first, at most maxEvents, with the day when not today", () => {
    // Twelve cheers a quarter of an hour apart from 13:00 Paris, handed over in a shuffled order.
    const events: EventRow[] = Array.from({ length: 12 }, (_, i) => {
      const at = new Date(Date.parse("2026-01-15T12:00:00Z") + i * 15 * 60_000).toISOString();
      return { child: i % 2 ? lea : noah, event: cheer(i % 2 ? lea : noah, `e${i}`, at), seq: (i * 7) % 12 };
    });
    const yesterday: EventRow = {
      child: lea,
      event: cheer(lea, "old", "2026-01-14T20:30:00Z"),
      seq: 99,
    };
    const lines = eventLines(
      renderLiveView(frame({ events: [...events].reverse() }), { now: NOW, timeZone: ZONE, maxEvents: 8 }),
    );
    expect(lines).toEqual([
      "  15:45  Léa   cheer: bravo",
      "  15:30  Noah  cheer: bravo",
      "  15:15  Léa   cheer: bravo",
      "  15:00  Noah  cheer: bravo",
      "  14:45  Léa   cheer: bravo",
      "  14:30  Noah  cheer: bravo",
      "  14:15  Léa   cheer: bravo",
      "  14:00  Noah  cheer: bravo",
    ]);

    const withOld = eventLines(renderLiveView(frame({ events: [yesterday] }), { now: NOW, timeZone: ZONE }));
    expect(withOld).toEqual(["  Wed 21:30  Léa  cheer: bravo"]);
    expect(eventLines(renderLiveView(frame(), { now: NOW, timeZone: ZONE }))).toEqual(["  (none yet)"]);
  });
});

describe("LiveModel", () => {
  it("keeps the latest facts only, newest first, ties in order of arrival", () => {
    const model = new LiveModel(3);
    model.addEvent(lea, cheer(lea, "a", "2026-01-15T10:00:00Z"));
    model.addEvent(lea, cheer(lea, "b", "2026-01-15T12:00:00Z"));
    model.addEvent(noah, cheer(noah, "c", "2026-01-15T12:00:00Z"));
    model.addEvent(noah, cheer(noah, "d", "2026-01-15T09:00:00Z"));
    model.addEvent(lea, cheer(lea, "e", "2026-01-15T11:00:00Z"));
    expect(model.frame().events.map((row) => row.event.id)).toEqual(["c", "b", "e"]);
  });

  it("keeps a child's reading when the list changes, and a reading clears unavailability", () => {
    const model = new LiveModel();
    model.setChildren([lea, ines]);
    model.setToday(lea, ownDay());
    model.setUnavailable(ines, "no rules synced yet");
    model.setChildren([ines, lea, noah]);
    expect(
      model.frame().children.map((row) => [row.child.firstName, row.today !== null, row.unavailable]),
    ).toEqual([
      ["Inès", false, "no rules synced yet"],
      ["Léa", true, null],
      ["Noah", false, null],
    ]);
    model.setToday(ines, ownDay());
    expect(model.frame().children[0]?.unavailable).toBeNull();
  });
});
