import { join } from "node:path";
import type { RequestHistory, RequestRecord, StoredRequests, TokenShare } from "../engine/storage.js";
import { AppendLog } from "./append-log.js";

export interface RequestLogOptions {
  dataDir: string;
  /** Requests older than this no longer matter to the budget and are dropped when rewriting. */
  keepMs: number;
  now?: () => number;
}

export const REQUEST_LOG_FILE = "api-requests.log";
/** Rewrite the file (keeping only what still matters) after this many appended lines. */
const REWRITE_AFTER = 200;

/**
 * The API requests of the last minutes and any 429 pause, so that a bridge restarted several
 * times within a minute (a crash loop) still counts what it already sent: the API's limit is per
 * token, not per process. And the share of the token the last 429 showed, so that a restarted
 * bridge does not take the other client's requests again. Lines: `s<sentAt>`,
 * `e<sentAt> <settledAt>`, `p<until>`, `a<at> <allowance> <holdMs>` (epoch ms; a share written
 * before holds could grow has no `<holdMs>`). Written like the
 * delivered-events log, one synchronous append each, safe against a kill; not forced to disk one
 * by one, since after a power cut more than a minute has passed anyway.
 */
export class RequestLog implements RequestHistory {
  readonly #log: AppendLog;
  readonly #keepMs: number;
  readonly #now: () => number;
  readonly #requests = new Map<number, RequestRecord>();
  #pausedUntil = 0;
  #share: TokenShare | undefined;

  private constructor(log: AppendLog, options: RequestLogOptions) {
    this.#log = log;
    this.#keepMs = options.keepMs;
    this.#now = options.now ?? Date.now;
  }

  static open(options: RequestLogOptions): RequestLog {
    const opened = AppendLog.open(join(options.dataDir, REQUEST_LOG_FILE), "API request log");
    const history = new RequestLog(opened.log, options);
    // Unreadable or torn lines are dropped: at worst one request of a power cut is not counted.
    for (const line of opened.lines) history.#replay(line);
    history.#rewrite();
    return history;
  }

  load(): StoredRequests {
    const requests = [...this.#requests.values()].map((r) => ({ ...r }));
    return this.#share
      ? { requests, pausedUntil: this.#pausedUntil, share: { ...this.#share } }
      : { requests, pausedUntil: this.#pausedUntil };
  }

  replace(kept: StoredRequests): void {
    this.#requests.clear();
    for (const request of kept.requests) this.#requests.set(request.sentAt, { ...request });
    this.#pausedUntil = kept.pausedUntil;
    this.#share = kept.share ? { ...kept.share } : undefined;
    this.#rewrite();
  }

  sent(sentAt: number): void {
    this.#append(`s${sentAt}`);
    this.#requests.set(sentAt, { sentAt });
  }

  settled(sentAt: number, settledAt: number): void {
    this.#append(`e${sentAt} ${settledAt}`);
    this.#requests.set(sentAt, { sentAt, settledAt });
  }

  paused(until: number): void {
    this.#append(`p${until}`);
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  shared(share: TokenShare): void {
    this.#append(shareLine(share));
    this.#share = { ...share };
  }

  close(): void {
    this.#log.close();
  }

  #append(line: string): void {
    if (this.#log.appended >= REWRITE_AFTER) this.#rewrite();
    this.#log.append(line);
  }

  #forgetOld(): void {
    const horizon = this.#now() - this.#keepMs;
    for (const [sentAt, request] of this.#requests) {
      if ((request.settledAt ?? sentAt) < horizon) this.#requests.delete(sentAt);
    }
  }

  #replay(line: string): void {
    const match = /^([sepa])(\d+)(?: (\d+))?(?: (\d+))?$/.exec(line);
    if (!match) return;
    const first = Number(match[2]);
    if (match[1] === "s") this.#requests.set(first, { sentAt: first });
    else if (match[1] === "e" && match[3] !== undefined)
      this.#requests.set(first, { sentAt: first, settledAt: Number(match[3]) });
    else if (match[1] === "p") this.#pausedUntil = Math.max(this.#pausedUntil, first);
    // The last share written is the one that holds.
    else if (match[1] === "a" && match[3] !== undefined)
      this.#share = {
        at: first,
        allowance: Number(match[3]),
        ...(match[4] === undefined ? {} : { holdMs: Number(match[4]) }),
      };
  }

  #rewrite(): void {
    this.#forgetOld();
    const lines = [...this.#requests.values()].map((r) =>
      r.settledAt === undefined ? `s${r.sentAt}` : `e${r.sentAt} ${r.settledAt}`,
    );
    if (this.#pausedUntil > this.#now()) lines.push(`p${this.#pausedUntil}`);
    // One line, kept while the bridge runs on this data directory: the budget knows when it expires.
    if (this.#share) lines.push(shareLine(this.#share));
    this.#log.rewrite(lines);
  }
}

function shareLine(share: TokenShare): string {
  const line = `a${share.at} ${share.allowance}`;
  return share.holdMs === undefined ? line : `${line} ${share.holdMs}`;
}
