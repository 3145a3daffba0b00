import { Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiEvent } from "../../src/api/schemas.js";
import { LiveViewSink } from "../../src/console/live-view-sink.js";
import type { ChildRef, EngineStatus } from "../../src/engine/sink.js";

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };
const NOW = Date.parse("2026-01-15T16:00:00Z");

const event: ApiEvent = {
  id: "e1",
  at: "2026-01-15T15:30:00.000Z",
  day: "2026-01-15",
  childId: lea.id,
  type: "session_started",
  minutes: 20,
};

const status: EngineStatus = {
  state: "ok",
  requestsLastMinute: 3,
  budgetPerMinute: 28,
  demandPerMinute: 27.1,
  stretch: 1,
  todayStretch: 1,
  children: [lea, noah],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: NOW,
};
const delivery = {
  event,
  ageSeconds: 1_800,
  replayed: false,
  inDoubt: false,
  lastReceipt: undefined,
  uncertain: false,
};

/** A stream that keeps what is written; a terminal when `tty` is set (log-update reads these). */
function capture(tty: boolean): Writable & { text: () => string; isTTY?: boolean } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(String(chunk));
      callback();
    },
  });
  return Object.assign(stream, tty ? { isTTY: true, columns: 100, rows: 40 } : {}, {
    text: () => chunks.join(""),
  });
}

/** Terminal output without its control sequences. */
function plainText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping ANSI escapes is the point
  return text.replace(/\u001B\[[0-9;?]*[A-Za-z]/g, "");
}

let sink: LiveViewSink | undefined;
afterEach(() => {
  sink?.close();
  sink = undefined;
});

describe("LiveViewSink, not on a terminal", () => {
  it("writes the header, then the console sink's plain lines, the fact before the promise settles", async () => {
    const output = capture(false);
    const errors = capture(false);
    sink = new LiveViewSink({
      output,
      errorOutput: errors,
      interactive: false,
      header: ["Demo header"],
      timeZone: "Europe/Paris",
      now: () => NOW,
    });
    sink.start();
    await sink.setChildren([lea, noah]);
    await sink.markUnavailable(noah, "rules_not_synced");
    await sink.publishEvent(lea, delivery);
    await sink.publishStatus(status);
    sink.logDestination().write("WARN: something\n");

    expect(output.text().split("\n")).toEqual([
      "Demo header",
      "following Léa, Noah",
      "Noah: unavailable (no rules synced yet)",
      // In the household's zone (Paris), with its offset, not the API's UTC.
      "Léa · session started: 20 min (2026-01-15T16:30:00+01:00)",
      "status ok",
      "",
    ]);
    // No escape sequence, nothing redrawn: readable in a pipe or a CI log.
    expect(output.text()).not.toContain("\u001B[");
    expect(errors.text()).toBe("WARN: something\n");
  });
});

describe("LiveViewSink, not on a terminal, a child's day", () => {
  it("is the console sink's line, once per change, in no time zone of the sink's own", async () => {
    const output = capture(false);
    sink = new LiveViewSink({
      output,
      errorOutput: capture(false),
      interactive: false,
      header: [],
      timeZone: "Europe/Paris",
      now: () => NOW,
    });
    sink.start();
    await sink.publishToday(lea, { date: "2026-01-15", isMyDay: false });
    await sink.publishToday(lea, { date: "2026-01-15", isMyDay: false });

    expect(output.text()).toBe("Léa: the other household's day (0 min)\n");
    // The bridge's zone comes from Home Assistant or TZ, never from a screen.
    expect(sink.timeZone()).toBeUndefined();
  });
});

describe("LiveViewSink, on a terminal", () => {
  it("redraws the table in place, with log lines printed above it", async () => {
    const output = capture(true);
    const errors = capture(false);
    sink = new LiveViewSink({
      output,
      errorOutput: errors,
      interactive: true,
      header: ["Demo header"],
      timeZone: "Europe/Paris",
      now: () => NOW,
      requestsLastMinute: () => 17,
    });
    sink.start();
    await sink.setChildren([lea, noah]);
    await sink.publishStatus(status);
    await sink.publishEvent(lea, delivery);
    await nextTurn();
    sink.logDestination().write("WARN: the API cannot be read\n");
    sink.close();
    sink = undefined;

    const text = plainText(output.text());
    expect(text.indexOf("Demo header")).toBeLessThan(text.indexOf("WARN: the API cannot be read"));
    // The frame is drawn again after the log line, below it.
    expect(text.lastIndexOf("│ child")).toBeGreaterThan(text.indexOf("WARN: the API cannot be read"));
    expect(text).toContain("16:30  Léa  session started: 20 min");
    // The live count is shown, not the status's own (a minute old at worst).
    expect(text).toContain("Bridge: ok · 17/28 requests in the last minute · on cadence");
    expect(output.text()).toContain("\u001B[");
    expect(errors.text()).toBe("");
  });

  it("shows a child's day in her row, a child it was not told of yet included", async () => {
    const output = capture(true);
    sink = new LiveViewSink({
      output,
      errorOutput: capture(false),
      interactive: true,
      header: [],
      timeZone: "Europe/Paris",
      now: () => NOW,
    });
    sink.start();
    await sink.setChildren([lea]);
    await sink.publishToday(noah, {
      date: "2026-01-15",
      isMyDay: true,
      period: "school",
      points: 5,
      maxPoints: 8,
      minutesUnlocked: 30,
      minutesConsumed: 12,
      minutesRemaining: 18,
      consumableToday: true,
      mandatoryOk: true,
      perfect: false,
      frozen: false,
      joker: false,
      nextTier: null,
      behaviors: [],
      session: null,
      streakDays: 2,
    });
    await nextTurn();
    sink.close();
    sink = undefined;

    const rows = plainText(output.text()).split("\n");
    const noahRow = rows.findLast((line) => line.startsWith("│ Noah "));
    expect(noahRow?.split("│").map((cell) => cell.trim())).toEqual([
      "",
      "Noah",
      "18",
      "5/8",
      "2 d",
      "—",
      "yes",
      "",
    ]);
    expect(rows.some((line) => line.startsWith("│ Léa "))).toBe(true);
  });
});
