import type { Today } from "../api/schemas.js";
import type { Fact } from "../engine/derived-facts.js";
import type {
  ChildRef,
  DeliveryOutcome,
  EngineStatus,
  FactDelivery,
  Sink,
  UnavailableReason,
} from "../engine/sink.js";
import { reasonText } from "../engine/unavailable-reason.js";
import { formatWithOffset } from "../time/zoned.js";

/** Facts as one line each, for a terminal or a log: the sink of the demo and of a bridge without HA. */
export class ConsoleSink implements Sink {
  readonly #write: (line: string) => void;
  readonly #timeZone: string | undefined;
  readonly #lastToday = new Map<string, string>();
  #lastStatus = "";

  constructor(
    write: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
    /** The zone times are shown in (the demo's household's); without, as the API gives them. */
    options: { timeZone?: string } = {},
  ) {
    this.#write = write;
    this.#timeZone = options.timeZone;
  }

  readonly ready = true;

  async open(): Promise<void> {}
  async close(): Promise<void> {}
  timeZone(): undefined {
    return undefined;
  }

  async whenReady(): Promise<void> {}

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.#write(`following ${children.map((c) => c.firstName).join(", ") || "no child"}`);
  }

  async publishToday(child: ChildRef, today: Today): Promise<void> {
    const line = describeToday(today, this.#timeZone);
    if (this.#lastToday.get(child.id) === line) return;
    this.#lastToday.set(child.id, line);
    this.#write(`${child.firstName}: ${line}`);
  }

  async publishEvent(child: ChildRef, { event, replayed }: FactDelivery): Promise<DeliveryOutcome> {
    const at = shownTime(event.at, this.#timeZone);
    this.#write(`${child.firstName} · ${describeEvent(event)} (${at}${replayed ? ", replayed" : ""})`);
    return {};
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    const stretch = stretchText(status);
    const line = `status ${status.state}${stretch ? `, ${stretch}` : ""}${status.lastError ? ` (${status.lastError})` : ""}`;
    if (line === this.#lastStatus) return;
    this.#lastStatus = line;
    this.#write(line);
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    this.#lastToday.delete(child.id);
    this.#write(`${child.firstName}: unavailable (${reasonText(reason)})`);
  }
}

export function describeToday(today: Today, timeZone?: string): string {
  if (!today.isMyDay) return "the other household's day (0 min)";
  const session =
    today.session?.running && today.session.endsAt
      ? `, session until ${shownTime(today.session.endsAt, timeZone)}`
      : "";
  return `${today.minutesRemaining} min left, ${today.points}/${today.maxPoints} points, streak ${today.streakDays} d${session}`;
}

/**
 * An instant of the API's as a person reads it in `timeZone`: the local time with its offset
 * (`2026-11-29T20:15:10+01:00`), so that a line still names one instant; as it came without a zone,
 * or when it cannot be read.
 */
export function shownTime(iso: string, timeZone: string | undefined): string {
  const at = Date.parse(iso);
  return timeZone === undefined || !Number.isFinite(at) ? iso : formatWithOffset(at, timeZone, "seconds");
}

export function describeEvent(event: Fact): string {
  switch (event.type) {
    case "behavior_validated":
      return `behavior validated: ${event.label ?? "(no label)"}`;
    case "session_started":
      return `session started: ${event.minutes} min`;
    case "menu_item_consumed":
      return `menu item used: ${event.label ?? "(no label)"}`;
    case "cheer_sent":
      return `cheer: ${event.cheer}`;
    case "behavior_declared":
      return `behavior declared, to validate in the app: ${event.label}`;
    case "behavior_rejected":
      return `behavior rejected: ${event.label}`;
    case "minutes_low":
      return `${event.minutesRemaining} min left (below ${event.threshold})`;
    case "session_ended":
      return "session ended";
    case "mandatory_done":
      return "the essentials are done";
    case "perfect_day":
      return "a perfect day";
    case "streak_extended":
      return `streak: ${event.streak} days`;
    case "streak_broken":
      return `streak broken (was ${event.previousStreak} days)`;
    case "next_tier_reached":
      return `next tier reached at ${event.points} points`;
    case "day_started":
      return "a new day";
  }
}

/** The stretched intervals in words; empty on cadence. The today read stretches first (cadence.ts). */
export function stretchText(status: EngineStatus): string {
  if (status.stretch > 1)
    return `journal polls stretched ×${status.stretch}, today reads ×${status.todayStretch}`;
  if (status.todayStretch > 1) return `today reads stretched ×${status.todayStretch}`;
  return "";
}
