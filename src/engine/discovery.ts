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
 * Brings the tracks in line with the children listed: a new child is followed at once, a renamed
 * one is read again at once under its new name. Returns whether the children followed changed,
 * the tracks of the children no longer listed (`gone`, for the caller to suspend until listed
 * again) and those listed again after being gone (`back`, for the caller to follow again). A child
 * suspended by a 403 and still listed stays suspended: its refused read is tried again on its own
 * schedule (followed-children.ts), the list showing it says nothing new.
 */
export function reconcileTracks(
  tracks: Map<string, Track>,
  wanted: readonly ChildRef[],
  now: number,
  logger: Logger,
): { changed: boolean; gone: Track[]; back: Track[] } {
  let changed = false;
  const back: Track[] = [];
  for (const child of wanted) {
    const track = tracks.get(child.id);
    if (!track) {
      tracks.set(child.id, newTrack(child, now));
      logger.info({ child: child.firstName }, "following a child");
      changed = true;
      continue;
    }
    if (track.child.firstName !== child.firstName) {
      track.child = child;
      changed = true;
      if (track.suspended === null) {
        track.eventsDue = now;
        track.todayDue = now;
      }
    }
    if (track.suspended?.kind === "unlisted") back.push(track);
  }
  const ids = new Set(wanted.map((child) => child.id));
  const gone = [...tracks.values()].filter(
    (track) => track.suspended?.kind !== "unlisted" && !ids.has(track.child.id),
  );
  return { changed: changed || gone.length > 0 || back.length > 0, gone, back };
}
