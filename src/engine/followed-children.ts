import { type DiscoveryContext, reconcileTracks, wantedChildren } from "./discovery.js";
import type { Pacing } from "./pacing.js";
import type { Sink, UnavailableReason } from "./sink.js";
import type { Track } from "./track.js";

/** What discovery needs (the reader, the `children` option, the logger, …) and where it tells. */
export interface FollowedChildrenOptions extends DiscoveryContext {
  sink: Sink;
  /** Shares the budget out again whenever the number of children followed changes. */
  pacing: Pacing;
}

/**
 * The children of the token, one track each, and what the sink is told of them: which are
 * followed, and which are unavailable and why. Discovery brings a child in (or back); a 403, or a
 * child gone from the list, suspends it until discovery brings it back.
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
    return [...this.#tracks.values()].filter((t) => !t.suspended);
  }

  /** Lists the token's children and brings the tracks, the sink and the pacing in line. */
  async discover(signal: AbortSignal): Promise<void> {
    const { wanted, unmatched } = await wantedChildren(this.#o, signal);
    // Said when it changes: the list is read every few minutes, and the option does not change.
    const unmatchedKey = JSON.stringify(unmatched);
    if (unmatched.length > 0 && unmatchedKey !== this.#unmatched)
      this.#o.logger.warn({ unmatched }, "the children option names no child of this token");
    this.#unmatched = unmatchedKey;
    const { changed, gone } = reconcileTracks(this.#tracks, wanted, Date.now(), this.#o.logger);
    for (const track of gone) await this.suspend(track, false);
    if (changed || !this.#discovered) {
      await this.#publish();
      this.#o.pacing.recompute(this.followed().length);
    }
    this.#discovered = true;
  }

  /** The token no longer covers the child (a 403, or gone from the list). */
  async suspend(track: Track, publish = true): Promise<void> {
    track.suspended = true;
    this.#o.logger.warn(
      { child: track.child.firstName },
      "the token no longer covers this child; not polling it",
    );
    await this.markUnavailable(track, "not_covered");
    if (publish) await this.#publish();
    this.#o.pacing.recompute(this.followed().length);
  }

  /** Tells the sink, once per reason, why the child's values are no longer current. */
  async markUnavailable(track: Track, reason: UnavailableReason): Promise<void> {
    if (track.unavailable === reason) return;
    track.unavailable = reason;
    await this.#o.sink.markUnavailable(track.child, reason);
  }

  /** The children followed now, to the sink: one that left the household is no longer among them. */
  async #publish(): Promise<void> {
    await this.#o.sink.setChildren(this.followed().map((t) => t.child));
  }
}
