import type { Logger } from "../log/logger.js";
import type { ApiReader } from "./api-reader.js";
import type { Sink } from "./sink.js";
import { pullTodayForward, type Track } from "./track.js";

export interface TodayJobContext {
  reader: ApiReader;
  sink: Sink;
  logger: Logger;
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
}

/**
 * Reads a child's today and hands it to the sink. A failure is thrown for the failure policy,
 * which counts a spell of them towards unavailable (failure-reactions.ts). The end of a running
 * session is known in advance: the next read is set right after it.
 */
export async function readToday(ctx: TodayJobContext, track: Track, signal: AbortSignal): Promise<void> {
  const today = await ctx.retry(() => ctx.reader.getToday(track.child.id, signal), signal);
  await ctx.sink.publishToday(track.child, today, Date.now());
  track.todayStaleSince = null;
  track.schemaIssue.today = null;
  if (track.unavailable !== null) {
    ctx.logger.info({ child: track.child.firstName }, "child readable again");
    track.unavailable = null;
  }
  const endsAt =
    today.isMyDay && today.session?.running ? Date.parse(today.session.endsAt ?? "") : Number.NaN;
  if (endsAt > Date.now()) pullTodayForward(track, endsAt + 1_000, endsAt);
}
