import type { ApiReader } from "./api-reader.js";
import { type DerivedJobContext, deriveAndDeliver } from "./derived-job.js";
import { pullTodayForward, type Track } from "./track.js";

export interface TodayJobContext extends DerivedJobContext {
  reader: ApiReader;
  retry<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T>;
}

/**
 * Reads a child's today, hands it to the sink, then the facts it shows since the last reading
 * (derived-job.ts). A failure is thrown for the failure policy, which counts a spell of them
 * towards unavailable (failure-reactions.ts). The end of a running session is known in advance:
 * the next read is set right after it, so that `session_ended` comes at the end, not a poll later.
 */
export async function readToday(ctx: TodayJobContext, track: Track, signal: AbortSignal): Promise<void> {
  const today = await ctx.retry(() => ctx.reader.getToday(track.child.id, signal), signal);
  const readAt = Date.now();
  await ctx.sink.publishToday(track.child, today, readAt);
  track.todayStaleSince = null;
  track.schemaIssue.today = null;
  if (track.unavailable !== null) {
    ctx.logger.info({ child: track.child.firstName }, "child readable again");
    track.unavailable = null;
  }
  const endsAt =
    today.isMyDay && today.session?.running ? Date.parse(today.session.endsAt ?? "") : Number.NaN;
  if (endsAt > Date.now()) pullTodayForward(track, endsAt + 1_000, endsAt);
  await deriveAndDeliver(ctx, track.child, today, readAt, signal);
}
