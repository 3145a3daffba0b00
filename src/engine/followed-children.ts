import { backoffMs, REFUSED_CHILD_BACKOFF } from "./backoff.js";
import { jittered } from "./cadence.js";
import { type DiscoveryContext, reconcileTracks, wantedChildren } from "./discovery.js";
import type { Pacing } from "./pacing.js";
import type { Sink, UnavailableReason } from "./sink.js";
import type { Track } from "./track.js";

/** What discovery needs (the reader, the `children` option, the logger, …) and where it tells. */
export interface FollowedChildrenOptions extends DiscoveryContext {
  sink: Sink;
  /** Shares the budget out again whenever the number of children followed changes. */
  pacing: Pacing;
  /** Fraction of a refused child's wait by which its next try moves at random. */
  jitter: number;
  random: () => number;
}

/**
 * The children of the token, one track each, and what the sink is told of them: which are
 * followed, and which are unavailable and why. Discovery brings a child in (or back). A 403
 * suspends a child, whose refused read is tried again now and then until it goes through; a
 * child gone from the list is suspended until the list shows it again. Each suspension is logged
 * when it begins and when it ends, not at every try.
 */
export class FollowedChildren {
  readonly #tracks = new Map<string, Track>();
  readonly #o: FollowedChildrenOptions;
  #discovered = false;
  /** The entries of the `children` option last reported as naming no child. */
  #unmatched = "";

  constructor(options: FollowedChildrenOptions) {
    this.#o = options;
  }

  /** Whether the children have been listed once: until then the bridge is starting. */
  get discovered(): boolean {
    return this.#discovered;
  }

  /** Every track, those suspended too. */
  all(): IterableIterator<Track> {
    return this.#tracks.values();
  }

  /** The children polled now: those the token still covers. */
  followed(): Track[] {
    return [...this.#tracks.values()].filter((t) => t.suspended === null);
  }

  /** Lists the token's children and brings the tracks, the sink and the pacing in line. */
  async discover(signal: AbortSignal): Promise<void> {
    const { wanted, unmatched } = await wantedChildren(this.#o, signal);
    // Said when it changes: the list is read every few minutes, and the option does not change.
    const unmatchedKey = JSON.stringify(unmatched);
    if (unmatched.length > 0 && unmatchedKey !== this.#unmatched)
      this.#o.logger.warn({ unmatched }, "the children option names no child of this token");
    this.#unmatched = unmatchedKey;
    const now = Date.now();
    const { changed, gone, back } = reconcileTracks(this.#tracks, wanted, now, this.#o.logger);
    for (const track of gone) await this.#unlisted(track);
    for (const track of back) this.#resume(track, now);
    if (changed || !this.#discovered) await this.#followedChanged();
    this.#discovered = true;
  }

  /**
   * A read of the child answered 403: it is not polled, but that read is tried again after
   * REFUSED_CHILD_BACKOFF's waits (a minute, doubling up to five) while the API keeps refusing it.
   */
  async refused(track: Track, read: "events" | "today", now: number): Promise<void> {
    const { suspended } = track;
    if (suspended?.kind === "unlisted") return;
    const refusals = suspended?.kind === "refused" ? suspended.refusals + 1 : 1;
    const wait = jittered(backoffMs(refusals, REFUSED_CHILD_BACKOFF), this.#o.jitter, this.#o.random);
    track.suspended = { kind: "refused", read, due: now + wait, refusals };
    if (suspended) return;
    this.#o.logger.warn(
      { child: track.child.firstName, read },
      "the token no longer covers this child; not polling it, trying again within minutes",
    );
    await this.markUnavailable(track, "not_covered");
    await this.#followedChanged();
  }

  /** A suspended child's read went through: it is followed again, from now. */
  async readable(track: Track, now: number): Promise<void> {
    if (track.suspended === null) return;
    this.#resume(track, now);
    await this.#followedChanged();
  }

  /** Tells the sink, once per reason, why the child's values are no longer current. */
  async markUnavailable(track: Track, reason: UnavailableReason): Promise<void> {
    if (track.unavailable === reason) return;
    track.unavailable = reason;
    await this.#o.sink.markUnavailable(track.child, reason);
  }

  /** Gone from the list: not read again, not even a refused read, until the list shows it again. */
  async #unlisted(track: Track): Promise<void> {
    const wasFollowed = track.suspended === null;
    track.suspended = { kind: "unlisted" };
    // A refused child already said so, and was unavailable; now gone from the sink's children too.
    if (!wasFollowed) return;
    this.#o.logger.warn(
      { child: track.child.firstName },
      "the token no longer covers this child; not polling it until the token lists it again",
    );
    await this.markUnavailable(track, "not_covered");
  }

  #resume(track: Track, now: number): void {
    track.suspended = null;
    track.eventsDue = now;
    track.todayDue = now;
    // Its next today read makes its values current again; "covered again" says why already.
    track.unavailable = null;
    this.#o.logger.info({ child: track.child.firstName }, "child covered by the token again");
  }

  /**
   * The children of the household to the sink, and the pacing. A child the list no longer shows
   * is not among them (her device goes); one whose reads are refused while the list still shows her
   * stays, unavailable: a refusal that passes must not remove and make again what users built on.
   */
  async #followedChanged(): Promise<void> {
    const listed = [...this.#tracks.values()].filter((t) => t.suspended?.kind !== "unlisted");
    await this.#o.sink.setChildren(listed.map((t) => t.child));
    this.#o.pacing.recompute(this.followed().length);
  }
}
