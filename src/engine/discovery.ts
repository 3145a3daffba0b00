import type { Logger } from "../log/logger.js";
import type { ApiReader } from "./api-reader.js";
import { type ChildFilterResult, filterChildren } from "./children.js";
import type { ChildRef } from "./sink.js";
import { newTrack, type Track } from "./track.js";

export interface DiscoveryContext {
  reader: ApiReader;
  logger: Logger;
  /** The `children` option: ids or first names; empty for all. */
  childrenFilter: readonly string[];
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
}

/**
 * The children of the token that the `children` option asks for, and the entries of the option
 * that name none of them (for the caller to report).
 */
export async function wantedChildren(ctx: DiscoveryContext, signal: AbortSignal): Promise<ChildFilterResult> {
  const listed = await ctx.retry(() => ctx.reader.listChildren(signal), signal);
  return filterChildren(listed, ctx.childrenFilter);
}

/**
 * Brings the tracks in line with the children listed: a new child is followed at once, one back
 * (or renamed) is polled again at once. Returns whether anything changed and the tracks of the
 * children no longer listed, for the engine to suspend.
 */
export function reconcileTracks(
  tracks: Map<string, Track>,
  wanted: readonly ChildRef[],
  now: number,
  logger: Logger,
): { changed: boolean; gone: Track[] } {
  let changed = false;
  for (const child of wanted) {
    const track = tracks.get(child.id);
    if (!track) {
      tracks.set(child.id, newTrack(child, now));
      logger.info({ child: child.firstName }, "following a child");
      changed = true;
    } else if (track.suspended || track.child.firstName !== child.firstName) {
      if (track.suspended) logger.info({ child: child.firstName }, "child covered by the token again");
      track.child = child;
      track.suspended = false;
      track.eventsDue = now;
      track.todayDue = now;
      changed = true;
    }
  }
  const ids = new Set(wanted.map((child) => child.id));
  const gone = [...tracks.values()].filter((track) => !track.suspended && !ids.has(track.child.id));
  return { changed: changed || gone.length > 0, gone };
}
