import { ApiError } from "../api/errors.js";
import type { Today } from "../api/schemas.js";
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
 * Reads a child's today and hands it to the sink. A failure is thrown for the failure policy; a
 * spell of transient failures starts the count towards unavailable. The end of a running session
 * is known in advance: the next read is set right after it.
 */
export async function readToday(ctx: TodayJobContext, track: Track, signal: AbortSignal): Promise<void> {
  let today: Today;
  try {
    today = await ctx.retry(() => ctx.reader.getToday(track.child.id, signal), signal);
  } catch (error) {
    if (error instanceof ApiError && error.retryable && track.todaySpell.fail(Date.now())) {
      ctx.logger.debug({ child: track.child.firstName }, "today could not be read; keeping the last values");
    }
    throw error;
  }
  await ctx.sink.publishToday(track.child, today, Date.now());
  track.todayStaleSince = null;
  track.schemaIssue.today = null;
  if (track.todaySpell.succeed() || track.unavailable !== null) {
    if (track.unavailable !== null) ctx.logger.info({ child: track.child.firstName }, "child readable again");
    track.unavailable = null;
  }
  const endsAt =
    today.isMyDay && today.session?.running ? Date.parse(today.session.endsAt ?? "") : Number.NaN;
  if (endsAt > Date.now()) pullTodayForward(track, endsAt + 1_000, endsAt);
}
