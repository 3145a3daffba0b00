import { ChildNotCoveredError } from "../api/errors.js";
import type { Logger } from "../log/logger.js";
import { sleep } from "../time/sleep.js";
import type { ApiReader } from "./api-reader.js";
import { localDayStartIso } from "./day-start.js";
import { derivedJobParts } from "./derived-job.js";
import { type DeliveryMoment, type EventsJobContext, eventsJobParts, pollEvents } from "./events-job.js";
import type { BridgeTimeOf } from "./fact-age.js";
import { FailureReactions } from "./failure-reactions.js";
import { FollowedChildren } from "./followed-children.js";
import { DISCOVERY_INTERVAL_MS, ListingSchedule } from "./listing-schedule.js";
import { Nap } from "./nap.js";
import { Pacing, round2 } from "./pacing.js";
import type { RateBudget } from "./rate-budget.js";
import { ReadNowRequests } from "./read-now.js";
import { retryTransient } from "./retry.js";
import { type Job, nextJob, type Schedule } from "./scheduler.js";
import type { EngineStatus, Sink } from "./sink.js";
import type { CursorStore, DeliveryLedger, DerivedFactsStore } from "./storage.js";
import { readToday, type TodayJobContext } from "./today-job.js";

export interface EngineOptions {
  reader: ApiReader;
  budget: RateBudget;
  sink: Sink;
  cursors: CursorStore;
  delivered: DeliveryLedger;
  logger: Logger;
  /** The household's time zone: Home Assistant's when known, else `TZ`; undefined: the system's. */
  timeZone: () => string | undefined;
  /** The journal's and today's intervals, before any stretch (the bridge's options set them). */
  eventsIntervalMs: number;
  todayIntervalMs: number;
  /** How often the token's children are listed while that goes through (a failed listing is tried again sooner). */
  discoveryIntervalMs?: number;
  tokenCheckIntervalMs?: number;
  statusIntervalMs?: number;
  /** The `children` option: ids or first names; empty for all. */
  childrenFilter?: readonly string[];
  /** Fraction of an interval by which each poll moves at random. */
  jitter?: number;
  random?: () => number;
  /** A child goes unavailable after its today has failed for this many today intervals. */
  unavailableAfterIntervals?: number;
  /** Backoff of the retries of a failed request (tests shorten it). */
  retryMinTimeoutMs?: number;
  /** Called on every turn of the loop: the container's health check watches it. */
  onTurn?: () => void;
  /** A fact older than this when it is sent is marked replayed (an option of the bridge). */
  replayedAfterMs: number;
  /**
   * The API's instants on the bridge's clock, by which a journal fact's age, a stored cursor and a
   * session's announced end are judged: the same instants unless the API runs a clock of its own
   * (the demo's household).
   */
  bridgeTimeOf?: BridgeTimeOf;
  /** Minutes remaining at which `minutes_low` fires (an option of the bridge; 10 and 5 unless told). */
  minutesLowThresholds?: readonly number[];
  /** Where each child's derivation state and pending derived facts are kept; in memory without. */
  derived?: DerivedFactsStore;
  /** Test hook (see EventsJobContext.pauseAt). */
  pauseAt?: (moment: DeliveryMoment, eventId: string) => Promise<void>;
}

/**
 * Polls the Reward Facts API for every child of one token and hands what it reads to a sink.
 * One loop runs one job at a time, earliest first: with a budget of one request every two seconds
 * there is nothing to gain from concurrency, and a single loop makes the budget, the fairness
 * between children and a clean stop simple.
 */
export class Engine {
  readonly #o: Required<Omit<EngineOptions, "childrenFilter" | "pauseAt" | "derived" | "bridgeTimeOf">> &
    Pick<EngineOptions, "pauseAt" | "derived" | "bridgeTimeOf"> & { childrenFilter: readonly string[] };
  readonly #children: FollowedChildren;
  readonly #failures: FailureReactions;
  readonly #abort = new AbortController();
  readonly #events: EventsJobContext;
  readonly #today: TodayJobContext;
  readonly #listing: ListingSchedule;
  #statusDue = 0;
  readonly #pacing: Pacing;
  #publishedStatus = "";
  #lastTurnAt = 0;
  readonly #nap = new Nap();
  readonly #readNow = new ReadNowRequests();
  #stopped = false;
  #running: Promise<void> | null = null;

  constructor(options: EngineOptions) {
    this.#o = {
      discoveryIntervalMs: DISCOVERY_INTERVAL_MS,
      tokenCheckIntervalMs: 10 * 60_000,
      statusIntervalMs: 60_000,
      childrenFilter: [],
      minutesLowThresholds: [10, 5],
      jitter: 0.1,
      random: Math.random,
      unavailableAfterIntervals: 3,
      retryMinTimeoutMs: 1_000,
      onTurn: () => undefined,
      ...options,
    };
    const o = this.#o;
    this.#pacing = new Pacing(o);
    const retry = <T>(attempt: () => Promise<T>, signal: AbortSignal) =>
      retryTransient(attempt, signal, { minTimeoutMs: o.retryMinTimeoutMs });
    this.#today = {
      reader: o.reader,
      sink: o.sink,
      logger: o.logger,
      retry,
      delivered: o.delivered,
      replayedAfterMs: o.replayedAfterMs,
      bridgeTimeOf: o.bridgeTimeOf,
      store: o.derived,
      minutesLowThresholds: o.minutesLowThresholds,
      ...derivedJobParts(),
      ...(o.pauseAt ? { pauseAt: o.pauseAt } : {}),
    };
    this.#children = new FollowedChildren({
      sink: o.sink,
      logger: o.logger,
      reader: o.reader,
      childrenFilter: o.childrenFilter,
      retry,
      pacing: this.#pacing,
      jitter: o.jitter,
      random: o.random,
    });
    this.#listing = new ListingSchedule({
      intervalMs: o.discoveryIntervalMs,
      jitter: o.jitter,
      random: o.random,
    });
    this.#failures = new FailureReactions({
      logger: o.logger,
      budget: o.budget,
      children: this.#children,
      tokenCheckIntervalMs: o.tokenCheckIntervalMs,
      unavailableAfterMs: () => this.#pacing.todayIntervals(o.unavailableAfterIntervals),
    });
    const events = {
      reader: o.reader,
      sink: o.sink,
      cursors: o.cursors,
      delivered: o.delivered,
      logger: o.logger,
      dayStart: (instant = Date.now()) => localDayStartIso(instant, o.timeZone()),
      retry,
      replayedAfterMs: o.replayedAfterMs,
      bridgeTimeOf: o.bridgeTimeOf,
      ...(o.pauseAt ? { pauseAt: o.pauseAt } : {}),
    };
    this.#events = { ...events, ...eventsJobParts(events) };
  }

  /**
   * Starts the loop; the first round goes out at once. The promise settles when the loop ends:
   * after stop(), or with the failure that ended it, which the caller must handle.
   */
  start(): Promise<void> {
    this.#running ??= this.#run(this.#abort.signal);
    return this.#running;
  }

  /** Stops the loop: the request in flight is aborted, nothing further is sent. */
  async stop(): Promise<void> {
    this.#abort.abort(new Error("engine stopped"));
    await this.#running?.catch(() => undefined);
  }

  /**
   * After stop(): tells the sink the bridge is stopping, so that nothing it shows looks current
   * (the status `stopped`, every child unavailable). Skipped when the sink cannot take it now.
   */
  async publishStopped(): Promise<void> {
    if (!this.#o.sink.ready) return;
    this.#stopped = true;
    for (const track of this.#children.followed()) {
      await this.#o.sink.markUnavailable(track.child, "bridge_stopped");
    }
    await this.#o.sink.publishStatus(this.status());
  }

  /**
   * A parent asked for a child's figures now (her Read now button): her day and journal are read
   * next, each at the budget's next free slot (the budget never lets the API's limit be passed).
   * At most once a minute per child: a press sooner is said once in the log and not queued (her
   * figures are at most a minute old then). A child not followed is said in the log and skipped.
   */
  readNow(childId: string): void {
    const track = this.#children.followed().find((candidate) => candidate.child.id === childId);
    if (!track) {
      this.#o.logger.info({ childId }, "Read now was pressed for a child the bridge does not follow");
      return;
    }
    const now = Date.now();
    const answer = this.#readNow.ask(childId, now);
    const who = { child: track.child.firstName };
    if (answer === "read") {
      this.#o.logger.info(who, "Read now: the child's day and journal are read next");
      track.todayDue = Math.min(track.todayDue, now);
      track.eventsDue = Math.min(track.eventsDue, now);
      this.#nap.wake();
    } else if (answer === "said") {
      this.#o.logger.info(
        who,
        "Read now was pressed again within a minute: not read again (the figures are at most a minute old)",
      );
    }
  }

  status(): EngineStatus {
    const now = Date.now();
    const { cadence } = this.#pacing;
    const state = this.#stopped
      ? "stopped"
      : this.#failures.tokenInvalid
        ? "token_invalid"
        : this.#o.budget.isPaused(now)
          ? "rate_limited"
          : this.#failures.apiUnreachable(now)
            ? "api_unreachable"
            : this.#children.discovered
              ? "ok"
              : "starting";
    return {
      state,
      requestsLastMinute: this.#o.budget.usedInWindow(now),
      budgetPerMinute: Math.round((this.#o.budget.allowance(now) * 60_000) / this.#o.budget.windowMs),
      demandPerMinute: Math.round(cadence.demandPerMinute * 10) / 10,
      stretch: round2(cadence.stretch),
      todayStretch: round2(cadence.todayStretch),
      children: this.#children.followed().map((t) => t.child),
      rateLimitedCount: this.#o.budget.rateLimitedCount,
      lastError: this.#failures.lastError,
      lastTurnAt: this.#lastTurnAt,
    };
  }

  async #run(signal: AbortSignal): Promise<void> {
    try {
      let first = true;
      while (!signal.aborted) {
        this.#lastTurnAt = Date.now();
        this.#o.onTurn();
        // However long the sink takes (Home Assistant starting, a broker away), the loop turns.
        if (!(await this.#sinkReadyWithin(30_000, signal))) continue;
        if (first) {
          await this.#publishStatus(true);
          first = false;
        }
        const job = nextJob(this.#schedule(), Date.now());
        const wait = job.due - Date.now();
        if (wait > 0) {
          // Wake at least every 30 s, so the heartbeat stays fresh through a 10-minute wait.
          await this.#nap.take(Math.min(wait, 30_000), signal);
          continue;
        }
        await this.#runJob(job, signal);
        if (this.#children.discovered && this.#pacing.outdated)
          this.#pacing.recompute(this.#children.followed().length);
        await this.#publishStatus(false);
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  }

  /** Waits for the sink, but turns the loop at least every `ms` (the heartbeat) while it waits. */
  async #sinkReadyWithin(ms: number, signal: AbortSignal): Promise<boolean> {
    // The usual case, at every turn: nothing to wait for, so no timer, listener or abort (whose
    // DOMException, stack and all, was some 2 % of a steady bridge's CPU time in a profile).
    if (this.#o.sink.ready) return true;
    const wait = new AbortController();
    const onAbort = () => wait.abort(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      return await Promise.race([
        this.#o.sink.whenReady(wait.signal).then(() => true),
        sleep(ms, wait.signal).then(() => false),
      ]);
    } finally {
      signal.removeEventListener("abort", onAbort);
      wait.abort();
      signal.throwIfAborted();
    }
  }

  async #runJob(job: Job, signal: AbortSignal): Promise<void> {
    const now = Date.now();
    try {
      switch (job.kind) {
        case "status":
          // Nothing to read: the loop publishes the status after every job once it is due.
          return;
        case "discovery":
          await this.#children.discover(signal);
          this.#listing.listed(Date.now());
          break;
        case "token_check":
          this.#failures.checkingToken(now);
          await this.#children.discover(signal);
          this.#listing.listed(Date.now());
          this.#failures.tokenWorks();
          for (const track of this.#children.all()) {
            track.eventsDue = now;
            track.todayDue = now;
          }
          break;
        case "events": {
          const { track } = job;
          this.#pacing.planEvents(track, job.due, this.#children.followed());
          const outcome = await pollEvents(this.#events, track.child, signal);
          track.schemaIssue.events = null;
          this.#pacing.journalRead(track, job.due, outcome, this.#children.followed());
          await this.#children.readable(track, Date.now());
          break;
        }
        case "today": {
          const { track } = job;
          this.#pacing.planToday(track, job.due);
          await readToday(this.#today, track, signal);
          await this.#children.readable(track, Date.now());
          break;
        }
      }
      this.#failures.succeeded(job, Date.now());
    } catch (error) {
      if (signal.aborted) throw error;
      if (job.kind === "discovery") this.#listing.failed(Date.now());
      if (error instanceof ChildNotCoveredError) this.#listing.soon(Date.now());
      await this.#failures.failed(error, job, Date.now());
    }
  }

  #schedule(): Schedule {
    return {
      tokenInvalid: this.#failures.tokenInvalid,
      tokenCheckDue: this.#failures.tokenCheckDue,
      discoveryDue: this.#listing.due,
      statusDue: this.#statusDue,
      tracks: this.#children.all(),
      intervals: this.#pacing.intervals,
    };
  }

  async #publishStatus(force: boolean): Promise<void> {
    const status = this.status();
    const key = JSON.stringify({ ...status, requestsLastMinute: 0, lastTurnAt: 0 });
    if (!force && key === this.#publishedStatus && Date.now() < this.#statusDue) return;
    this.#publishedStatus = key;
    this.#statusDue = Date.now() + this.#o.statusIntervalMs;
    await this.#o.sink.publishStatus(status);
  }
}
