import type { Logger } from "../log/logger.js";
import { FailureSpell } from "./failure-spell.js";
import type { Job } from "./scheduler.js";

/** What a read is of: the token's list of children, or one child's journal or today. */
export type ReadKind = "children" | "events" | "today";

/** Names a source in a log line: the read, and the child's first name for a child's read. */
export interface ReadSource {
  read: ReadKind;
  child?: string;
}

/**
 * The failure spells of each source the engine reads: the list of children (kept here), and each
 * child's journal and today (kept on its track, where today's also counts towards unavailable).
 * Each spell is logged when it begins and when it ends, whatever the other sources do meanwhile:
 * with one spell for the whole API, any other child's read ended it, and one child's journal
 * failing for good beside children read fine was logged at nearly every poll (10 warnings in
 * 2 minutes, issue 41).
 *
 * An outage of the whole API is told once, all the same: a source that begins to fail while
 * another already does, and no read has gone through since, is covered by the first one's line (an
 * outage with three children was 6 lines when it began and 6 when it ended, issue 53). A covered
 * source ends without a word; one still failing once the API answers other reads is told then.
 */
export class ReadSpells {
  readonly #logger: Logger;
  readonly #listing = new FailureSpell();
  /** Spells that began while the API read nothing at all: told by the line of the outage's first. */
  readonly #covered = new Set<FailureSpell>();
  /** Covered spells not yet seen failing since a read went through: told if they fail on. */
  readonly #unsettled = new Set<FailureSpell>();
  /** No read has gone through since a spell began. */
  #outage = false;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The job's read failed at `now`: the API failed it (a 5xx, a network failure, an odd status). */
  failed(job: Job, now: number, error: string): void {
    const source = this.#sourceOf(job);
    if (!source) return;
    const { spell, name } = source;
    if (spell.fail(now)) {
      if (this.#outage) {
        this.#covered.add(spell);
        return;
      }
      this.#outage = true;
      this.#logger.warn({ ...name, error }, "the API cannot be read");
      return;
    }
    // Covered by an outage, and failing still though the API has answered since: its own failure.
    if (this.#unsettled.delete(spell)) {
      this.#covered.delete(spell);
      this.#logger.warn({ ...name, error }, "the API cannot be read");
    }
  }

  /** The job's read went through at `now`. */
  succeeded(job: Job, now: number): void {
    const source = this.#sourceOf(job);
    if (!source) return;
    if (this.#outage) {
      this.#outage = false;
      for (const spell of this.#covered) this.#unsettled.add(spell);
    }
    const { spell, name } = source;
    if (!spell.failing) return;
    const context = {
      ...name,
      failures: spell.failures,
      failedForSeconds: Math.round(spell.lastedMs(now) / 1000),
    };
    spell.succeed();
    this.#unsettled.delete(spell);
    if (this.#covered.delete(spell)) return;
    this.#logger.info(context, "the API answers again");
  }

  #sourceOf(job: Job): { spell: FailureSpell; name: ReadSource } | undefined {
    switch (job.kind) {
      case "discovery":
      case "token_check":
        return { spell: this.#listing, name: { read: "children" } };
      case "events":
        return { spell: job.track.eventsSpell, name: { read: "events", child: job.track.child.firstName } };
      case "today":
        return { spell: job.track.todaySpell, name: { read: "today", child: job.track.child.firstName } };
      case "status":
        return undefined;
    }
  }
}
