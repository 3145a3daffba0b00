import type { Logger } from "../log/logger.js";
import { type Cadence, cadenceFor, jittered } from "./cadence.js";
import type { EventsOutcome } from "./events-job.js";
import { activityAt, journalStretches, noteFacts } from "./journal-share.js";
import type { RateBudget } from "./rate-budget.js";
import { pullTodayForward, type Track } from "./track.js";

/**
 * When a backlog's next page is due: just after now, so that every job due by now goes first (at
 * the first start, all of them are due at once).
 */
const NEXT_PAGE_AFTER_MS = 1;

export interface PacingOptions {
  budget: RateBudget;
  logger: Logger;
  eventsIntervalMs: number;
  todayIntervalMs: number;
  discoveryIntervalMs: number;
  /** Fraction of an interval by which each poll moves at random. */
  jitter: number;
  random: () => number;
}

/**
 * How often each child's polls go: the configured intervals, stretched when the children ask for
 * more than the budget's allowance (cadence.ts), a busier child's journal read sooner
 * (journal-share.ts), each poll moved a little at random. Follows the allowance: a 429 that shows
 * another client on the token lowers it, and the intervals follow.
 */
export class Pacing {
  readonly #o: PacingOptions;
  #cadence: Cadence = { demandPerMinute: 0, stretch: 1, todayStretch: 1 };
  /** The budget's allowance the cadence was computed for. */
  #allowance = 0;

  constructor(options: PacingOptions) {
    this.#o = options;
  }

  get cadence(): Readonly<Cadence> {
    return this.#cadence;
  }

  /** The even plan's intervals now, stretch included (what the scheduler weighs each poll against). */
  get intervals(): { eventsMs: number; todayMs: number } {
    return {
      eventsMs: this.#o.eventsIntervalMs * this.#cadence.stretch,
      todayMs: this.#o.todayIntervalMs * this.#cadence.todayStretch,
    };
  }

  /** The budget's allowance moved since the cadence was computed (a 429, or the share regained). */
  get outdated(): boolean {
    return this.#o.budget.allowance() !== this.#allowance;
  }

  /**
   * The cadence for this many children at the budget's allowance now. Logged when another client
   * shrinks the bridge's share, and when the children alone ask for more than the API allows.
   */
  recompute(children: number): void {
    const previous = this.#allowance;
    const { budget, logger } = this.#o;
    this.#allowance = budget.allowance();
    const shared = this.#allowance < budget.perWindow;
    const budgetPerMinute = (this.#allowance * 60_000) / budget.windowMs;
    const cadence = cadenceFor(children, { ...this.#o, budgetPerMinute });
    const context = { children, demandPerMinute: cadence.demandPerMinute, budgetPerMinute };
    if (shared && this.#allowance < previous) {
      // Logged when it shrinks only: it grows back slowly, once the share has held (rate-budget.ts).
      logger.info(context, "another client uses the token: the bridge takes less of it, intervals follow");
    } else if (!shared && cadence.todayStretch > 1 && changed(cadence, this.#cadence)) {
      const journal =
        cadence.stretch > 1 ? `journal polls ×${cadence.stretch.toFixed(2)}` : "the journal stays on cadence";
      logger.warn(
        { ...context, todayStretch: round2(cadence.todayStretch), journalStretch: round2(cadence.stretch) },
        `more children than the API's budget allows on cadence: today reads stretched ×${cadence.todayStretch.toFixed(2)}, ${journal}`,
      );
    }
    this.#cadence = cadence;
  }

  /** The child's next journal poll after `previous`, at its share of the polls among `followed`. */
  planEvents(track: Track, previous: number, followed: readonly Track[]): void {
    track.eventsEveryMs = this.#o.eventsIntervalMs * this.#journalStretchOf(track, followed);
    track.eventsDue = this.#after(previous, track.eventsEveryMs);
  }

  /**
   * What a journal poll planned at `due` tells the child's next polls: recent facts make its
   * journal busier and its today stale; a full page means more is waiting.
   */
  journalRead(track: Track, due: number, outcome: EventsOutcome, followed: readonly Track[]): void {
    // Facts of a catch-up (marked replayed) tell what the child did, not what it does now.
    if (outcome.recent > 0) {
      track.activity = noteFacts(track.activity, outcome.recent, Date.now());
      // A busier child's next poll comes sooner once the budget is short (journal-share.ts).
      this.planEvents(track, due, followed);
    }
    // A new fact means today's state has changed since it: read it now, before routine polls.
    // Not for a backlog's pages of earlier facts, each of which would read today again.
    if (outcome.recent > 0 && outcome.firstFactAt !== undefined)
      pullTodayForward(track, Date.now(), outcome.firstFactAt);
    // The backlog's next page, once the jobs already due have had their turn.
    if (outcome.more) track.eventsDue = Date.now() + NEXT_PAGE_AFTER_MS;
  }

  /** The child's next routine today read after `previous`, stretched first when the budget is short. */
  planToday(track: Track, previous: number): void {
    track.todayEveryMs = this.#o.todayIntervalMs * this.#cadence.todayStretch;
    track.todayDue = this.#after(previous, track.todayEveryMs);
  }

  /** This many of today's intervals, at today's pace now. */
  todayIntervals(count: number): number {
    return count * this.#o.todayIntervalMs * this.#cadence.todayStretch;
  }

  /** This child's journal stretch: the even one, shared out by the children's recent facts. */
  #journalStretchOf(track: Track, followed: readonly Track[]): number {
    if (this.#cadence.stretch <= 1) return 1;
    const now = Date.now();
    const stretches = journalStretches(
      followed.map((t) => activityAt(t.activity, now)),
      this.#cadence.stretch,
    );
    return stretches[followed.indexOf(track)] ?? this.#cadence.stretch;
  }

  /** The due time after `previous`, on cadence; a job that fell behind goes next, not twice. */
  #after(previous: number, everyMs: number): number {
    const step = jittered(everyMs, this.#o.jitter, this.#o.random);
    return Math.max(previous + step, Date.now());
  }
}

function changed(a: Cadence, b: Cadence): boolean {
  return Math.abs(a.stretch - b.stretch) > 0.001 || Math.abs(a.todayStretch - b.todayStretch) > 0.001;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
