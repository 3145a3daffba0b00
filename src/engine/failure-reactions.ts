import type { Logger } from "../log/logger.js";
import { backoffMs, SINK_REFUSED_BACKOFF } from "./backoff.js";
import { failureAction, isBridgeError } from "./failure-policy.js";
import { FailureSpell } from "./failure-spell.js";
import type { FollowedChildren } from "./followed-children.js";
import type { RateBudget } from "./rate-budget.js";
import { ReadSpells } from "./read-spells.js";
import type { Job } from "./scheduler.js";
import type { Track } from "./track.js";

export interface FailureReactionsOptions {
  logger: Logger;
  budget: RateBudget;
  children: FollowedChildren;
  /** How often a rejected token is tried again. */
  tokenCheckIntervalMs: number;
  /**
   * How long the API may fail, with no read going through at all, before it counts as unreachable;
   * and how long a child's today may fail before the child does.
   */
  unavailableAfterMs: () => number;
}

/**
 * What the engine's loop does with a failed job, once the failure policy (failure-policy.ts) has
 * named the action, and what it keeps of failures for the status and the schedule: how long the
 * API as a whole and the data directory have failed, each source's spell (read-spells.ts), whether
 * the token was rejected and when to try it again, the last error. Each spell is logged when it
 * starts and when it ends, not at every failure; the API's as a whole is not logged: its sources'
 * lines tell what fails.
 */
export class FailureReactions {
  readonly #o: FailureReactionsOptions;
  /** Every read of the API failing, none going through: for the status's `api_unreachable`. */
  readonly #apiSpell = new FailureSpell();
  readonly #reads: ReadSpells;
  readonly #storageSpell = new FailureSpell();
  /** The unreadable answer of the children's list last logged, so that a lasting one is logged once. */
  #listingIssue: string | null = null;
  #tokenInvalid = false;
  #tokenCheckDue = 0;
  #lastError: string | null = null;

  constructor(options: FailureReactionsOptions) {
    this.#o = options;
    this.#reads = new ReadSpells(options.logger);
  }

  /** The API rejected the token: nothing is polled but the token check. */
  get tokenInvalid(): boolean {
    return this.#tokenInvalid;
  }

  get tokenCheckDue(): number {
    return this.#tokenCheckDue;
  }

  /** The last failure of the bridge's own (not a child's condition), until a job goes through. */
  get lastError(): string | null {
    return this.#lastError;
  }

  /** Whether the API has failed for long enough to say so in the status. */
  apiUnreachable(now: number): boolean {
    return this.#apiSpell.lastedMs(now) >= this.#o.unavailableAfterMs();
  }

  /** The token check starts: the next one is an interval away, whatever this one finds. */
  checkingToken(now: number): void {
    this.#tokenCheckDue = now + this.#o.tokenCheckIntervalMs;
  }

  /** The token check went through. */
  tokenWorks(): void {
    this.#tokenInvalid = false;
    this.#o.logger.info("the API token works again; polling resumes");
  }

  /** A job went through at `now`: the spells it ends are logged, and the last error is cleared. */
  succeeded(job: Job, now: number): void {
    this.#apiSpell.succeed();
    if ("track" in job && sinkTakesAgain(job.track, job.kind)) {
      this.#o.logger.info({ child: job.track.child.firstName }, "Home Assistant takes the facts again");
    }
    this.#reads.succeeded(job, now);
    if (job.kind === "discovery" || job.kind === "token_check") this.#listingIssue = null;
    if (this.#storageSpell.succeed()) this.#o.logger.info("the data directory can be written again");
    this.#lastError = null;
  }

  /** Applies the failure policy's action for `error` to the loop, the budget and the job's child. */
  async failed(error: unknown, job: Job, now: number): Promise<void> {
    const { logger, children } = this.#o;
    const track = "track" in job ? job.track : undefined;
    const who = track ? { child: track.child.firstName } : {};
    const action = failureAction(error);
    if (isBridgeError(action) && "message" in action) this.#lastError = action.message;
    switch (action.kind) {
      case "await_sink":
        if (!track) return;
        if (!action.refused) {
          // The sink's readiness holds the next try until it is back.
          track.eventsDue = now;
          return;
        }
        if (job.kind !== "events" && job.kind !== "today") return;
        track.sinkRefusedIn.add(job.kind);
        if (track.sinkSpell.fail(now)) {
          logger.warn(
            { ...who, error: action.message },
            "Home Assistant refused a fact; trying again, waiting longer each time",
          );
        }
        // A journal fact is tried again with its page; a derived one at the next today read, on
        // its routine plan (reading today sooner would spend the budget on the refusal).
        if (job.kind === "events")
          track.eventsDue = now + backoffMs(track.sinkSpell.failures, SINK_REFUSED_BACKOFF);
        return;
      case "storage_failing":
        if (this.#storageSpell.fail(now))
          logger.error({ ...who, error: action.message }, "cannot write the data directory; facts wait");
        return;
      case "token_rejected":
        if (!this.#tokenInvalid) {
          logger.error(
            `the API rejected the token (revoked or unknown): create a new token in the app; checking again every ${Math.round(this.#o.tokenCheckIntervalMs / 60_000)} minutes`,
          );
        }
        this.#tokenInvalid = true;
        this.checkingToken(now);
        for (const t of children.all()) await children.markUnavailable(t, "token_rejected");
        return;
      case "rate_limited":
        this.#o.budget.pauseAfterRateLimit(action.retryAfterMs, now);
        logger.warn(
          { retryAfterMs: action.retryAfterMs },
          "the API answered 429 (rate limited): pausing every request of the token",
        );
        return;
      case "child_not_covered":
        if ("track" in job) await children.refused(job.track, job.kind, now);
        return;
      case "rules_not_synced":
        if (!track) return;
        if (track.unavailable !== "rules_not_synced")
          logger.warn(who, "no rules synced yet for this child; checking again at the today cadence");
        await children.markUnavailable(track, "rules_not_synced");
        return;
      case "unreadable_answer": {
        const issue = action.issues.join("; ");
        const last = "track" in job ? job.track.schemaIssue[job.kind] : this.#listingIssue;
        if (last !== issue)
          logger.warn({ ...who, issues: action.issues, request: action.path }, "unreadable API answer");
        if ("track" in job) job.track.schemaIssue[job.kind] = issue;
        else this.#listingIssue = issue;
        return;
      }
      case "api_failing":
        this.#apiSpell.fail(now);
        this.#reads.failed(job, now, action.message);
        if (track && job.kind === "today" && track.todaySpell.lastedMs(now) >= this.#o.unavailableAfterMs()) {
          if (track.unavailable === null)
            logger.warn(who, "child unavailable: the API has failed for too long");
          await children.markUnavailable(track, "api_unreachable");
        }
        return;
      case "unexpected":
        logger.error({ ...who, err: error }, `unexpected failure in the ${job.kind} job`);
        return;
    }
  }
}

/** A read whose facts were refused went through: true when no read of the child's is refused now. */
function sinkTakesAgain(track: Track, kind: "events" | "today"): boolean {
  if (!track.sinkRefusedIn.delete(kind) || track.sinkRefusedIn.size > 0) return false;
  return track.sinkSpell.succeed();
}
