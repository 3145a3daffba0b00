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
 */
export class ReadSpells {
  readonly #logger: Logger;
  readonly #listing = new FailureSpell();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** The job's read failed at `now`: the API failed it (a 5xx, a network failure, an odd status). */
  failed(job: Job, now: number, error: string): void {
    const source = this.#sourceOf(job);
    if (source?.spell.fail(now)) this.#logger.warn({ ...source.name, error }, "the API cannot be read");
  }

  /** The job's read went through at `now`. */
  succeeded(job: Job, now: number): void {
    const source = this.#sourceOf(job);
    if (!source?.spell.failing) return;
    const { spell, name } = source;
    const context = {
      ...name,
      failures: spell.failures,
      failedForSeconds: Math.round(spell.lastedMs(now) / 1000),
    };
    spell.succeed();
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
