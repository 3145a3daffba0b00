import type { ApiEvent } from "../api/schemas.js";
import { type BehaviorTimeline, type DayPlan, planDay } from "./day-plan.js";
import type { SimChild } from "./household.js";
import type { TimedEvent } from "./ledger.js";
import { compareKeys, type JournalKey } from "./ordering.js";
import type { Since } from "./since.js";
import { addDays, type LocalDate, localDateOf } from "./zoned-time.js";

/** One fact as stored: its place in the journal and the body served for it. */
export interface JournalEntry extends JournalKey {
  /** What the events endpoint sends, unchanged (a raw entry may be anything). */
  body: unknown;
  /** The fact, when the entry is a well-formed event of a known type. */
  event: ApiEvent | undefined;
}

export interface JournalSettings {
  seed: number;
  timeZone: string;
  factsPerHour: number;
  /** First instant of the automatic activity; undefined when it is switched off. */
  activityFrom: number | undefined;
}

/** Omitting since gives the last day of history (the spec does not show what it gives). */
export const OMITTED_SINCE_WINDOW_MS = 24 * 3_600_000;

/**
 * A child's journal at an instant: the day plans' facts recorded by then, merged with the facts
 * tests added. Plans are computed on demand and kept, which is safe because they are pure.
 */
export class Journal {
  readonly #settings: JournalSettings;
  readonly #firstPlannedDate: LocalDate | undefined;
  readonly #plans = new Map<string, DayPlan>();
  readonly #added = new Map<string, JournalEntry[]>();

  constructor(settings: JournalSettings) {
    this.#settings = settings;
    this.#firstPlannedDate =
      settings.activityFrom === undefined ? undefined : localDateOf(settings.activityFrom, settings.timeZone);
  }

  plan(child: SimChild, date: LocalDate): DayPlan {
    const key = `${child.id}|${date}`;
    let plan = this.#plans.get(key);
    if (!plan) {
      const active = this.#firstPlannedDate !== undefined && date >= this.#firstPlannedDate;
      plan = active
        ? planDay(child, date, this.#settings)
        : { date, facts: [], timelines: new Map(), joker: false };
      this.#plans.set(key, plan);
    }
    return plan;
  }

  /**
   * A parent or the child acts on a behavior in the app (a test's doing): declared or rejected
   * from `at` on its day, as a day plan would have it.
   */
  markBehavior(child: SimChild, date: LocalDate, behaviorId: string, change: BehaviorTimeline): void {
    const plan = this.plan(child, date);
    const timelines = new Map(plan.timelines);
    timelines.set(behaviorId, { ...timelines.get(behaviorId), ...change });
    this.#plans.set(`${child.id}|${date}`, { ...plan, timelines });
  }

  add(child: SimChild, entry: JournalEntry): void {
    const entries = this.#added.get(child.id) ?? [];
    entries.push(entry);
    this.#added.set(child.id, entries);
  }

  /** Entries recorded in [from, to], in journal order (`from` may be -Infinity: everything). */
  between(child: SimChild, from: number, to: number): JournalEntry[] {
    const entries = (this.#added.get(child.id) ?? []).filter(
      (e) => e.recordedAt >= from && e.recordedAt <= to,
    );
    const firstPlanned = this.#firstPlannedDate;
    if (firstPlanned !== undefined && to >= from) {
      const fromDate = Number.isFinite(from) ? localDateOf(from, this.#settings.timeZone) : firstPlanned;
      const toDate = localDateOf(to, this.#settings.timeZone);
      // Dates compare as text (YYYY-MM-DD): no plan before the first planned date.
      for (
        let date = [fromDate, firstPlanned].sort()[1] ?? fromDate;
        date <= toDate;
        date = addDays(date, 1)
      ) {
        for (const fact of this.plan(child, date).facts) {
          if (fact.recordedAt >= from && fact.recordedAt <= to) entries.push(planEntry(fact));
        }
      }
    }
    return entries.sort(compareKeys);
  }

  /** The known facts of a local date recorded by `now` (what today's figures are made of). */
  dayFacts(child: SimChild, date: LocalDate, now: number): TimedEvent[] {
    const facts = this.plan(child, date).facts.filter((f) => f.recordedAt <= now);
    for (const entry of this.#added.get(child.id) ?? []) {
      if (entry.event && entry.event.day === date && entry.recordedAt <= now) {
        facts.push({ recordedAt: entry.recordedAt, event: entry.event });
      }
    }
    return facts;
  }

  /** One page of the events endpoint: at most `limit` entries after `since`, recorded by `now`. */
  page(child: SimChild, since: Since, now: number, limit: number): JournalEntry[] {
    switch (since.kind) {
      case "omitted":
        return this.between(child, now - OMITTED_SINCE_WINDOW_MS, now).slice(0, limit);
      case "instant":
        return this.between(child, since.at, now).slice(0, limit);
      case "cursor":
        return this.between(child, since.recordedAt, now)
          .filter((e) => compareKeys(e, since) > 0)
          .slice(0, limit);
    }
  }
}

function planEntry(fact: TimedEvent): JournalEntry {
  return { recordedAt: fact.recordedAt, id: fact.event.id, body: fact.event, event: fact.event };
}
