import Table from "cli-table3";
import type { Today } from "../api/schemas.js";
import type { EngineStatus } from "../engine/sink.js";
import { describeEvent, stretchText } from "./console-sink.js";
import {
  type ChildRow,
  DEFAULT_MAX_EVENTS,
  type EventRow,
  type LiveFrame,
  latestEvents,
} from "./live-model.js";

export interface RenderOptions {
  /** The instant the view is drawn at: the simulated household's clock in the demo. */
  now: number;
  /** The zone in which times are shown (the household's). */
  timeZone: string;
  /** Lines above the clock: what this is, how to stop it. */
  header?: readonly string[];
  maxEvents?: number;
}

export const TABLE_HEAD = ["child", "minutes left", "points", "streak", "session ends", "my day"] as const;
const NONE = "—";

/** The whole screen as text: a pure function of what the sink was told, so tests can read it. */
export function renderLiveView(frame: LiveFrame, options: RenderOptions): string {
  const { now, timeZone } = options;
  return [
    ...(options.header ?? []),
    `Household time: ${formatDayAndTime(now, timeZone)} (${timeZone})`,
    "",
    renderChildren(frame.children, now, timeZone),
    describeStatus(frame.status),
    "",
    "Latest events (newest first):",
    ...renderEvents(frame.events, now, timeZone, options.maxEvents ?? DEFAULT_MAX_EVENTS),
  ].join("\n");
}

export function renderChildren(rows: readonly ChildRow[], now: number, timeZone: string): string {
  // No colours: the text must read the same in any terminal, and tests compare it as is.
  const table = new Table({ head: [...TABLE_HEAD], style: { head: [], border: [], compact: true } });
  for (const row of rows) table.push([row.child.firstName, ...childCells(row, now, timeZone)]);
  if (rows.length === 0) table.push([{ colSpan: TABLE_HEAD.length, content: "looking for the children…" }]);
  return table.toString();
}

type Cells = Array<string | { colSpan: number; content: string }>;

function childCells(row: ChildRow, now: number, timeZone: string): Cells {
  const span = TABLE_HEAD.length - 1;
  if (row.unavailable !== null) return [{ colSpan: span, content: `unavailable: ${row.unavailable}` }];
  if (row.today === null) return [{ colSpan: span, content: "waiting for the first reading…" }];
  return todayCells(row.today, now, timeZone);
}

function todayCells(today: Today, now: number, timeZone: string): string[] {
  // The other household's day: 0 minutes, as the minutes_remaining sensor says; nothing else is told.
  if (!today.isMyDay) return ["0", NONE, NONE, NONE, "no"];
  return [
    String(today.minutesRemaining),
    `${today.points}/${today.maxPoints}`,
    `${today.streakDays} d`,
    sessionEnd(today, now, timeZone),
    "yes",
  ];
}

/**
 * The end of the running session. Between two readings the household's clock may pass it: the
 * bridge still says "running" until its next reading, and the view says it has ended meanwhile.
 */
function sessionEnd(today: Today & { isMyDay: true }, now: number, timeZone: string): string {
  const endsAt = today.session?.running ? Date.parse(today.session.endsAt ?? "") : Number.NaN;
  if (Number.isNaN(endsAt)) return NONE;
  const time = formatTime(endsAt, timeZone);
  return endsAt > now ? time : `${time} (ended)`;
}

export function describeStatus(status: EngineStatus | null): string {
  if (status === null) return "Bridge: starting";
  const parts = [
    `Bridge: ${status.state}`,
    `${status.requestsLastMinute}/${status.budgetPerMinute} requests in the last minute`,
    stretchText(status) || "on cadence",
  ];
  if (status.rateLimitedCount > 0) parts.push(`${status.rateLimitedCount} × 429`);
  if (status.lastError) parts.push(`last error: ${status.lastError}`);
  return parts.join(" · ");
}

export function renderEvents(
  events: readonly EventRow[],
  now: number,
  timeZone: string,
  max: number,
): string[] {
  const latest = latestEvents(events, max);
  if (latest.length === 0) return ["  (none yet)"];
  const nameWidth = Math.max(...latest.map((row) => row.child.firstName.length));
  const today = formatDay(now, timeZone);
  return latest.map(({ child, event }) => {
    const at = Date.parse(event.at);
    // A fact of another day (yesterday evening, after midnight has passed) says which day.
    const day = formatDay(at, timeZone) === today ? "" : `${formatWeekday(at, timeZone)} `;
    return `  ${day}${formatTime(at, timeZone)}  ${child.firstName.padEnd(nameWidth)}  ${describeEvent(event)}`;
  });
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat("en-GB", { timeZone, ...options });
    formatters.set(key, cached);
  }
  return cached;
}

/** `HH:MM`, 24-hour, in the zone. */
export function formatTime(instant: number, timeZone: string): string {
  return formatter(timeZone, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);
}

function formatDay(instant: number, timeZone: string): string {
  return formatter(timeZone, { year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);
}

function formatWeekday(instant: number, timeZone: string): string {
  return formatter(timeZone, { weekday: "short" }).format(instant);
}

function formatDayAndTime(instant: number, timeZone: string): string {
  const date = formatter(timeZone, { weekday: "short", day: "numeric", month: "short" }).format(instant);
  return `${date} ${formatTime(instant, timeZone)}`;
}
