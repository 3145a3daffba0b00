import { realClock, type SimClock } from "./clock.js";
import type { EmptyPageCursor } from "./endpoints.js";
import type { RateWindow } from "./rate-limiter.js";
import { assertTimeZone } from "./zoned-time.js";

export interface ActivityOptions {
  /** Days of history before the clock's starting day that the journal already holds (default 7). */
  historyDays?: number;
  /** Extra cheers per hour and child on top of the ordinary day, for high-volume runs (default 0). */
  factsPerHour?: number;
}

export interface SimulatorOptions {
  /** Port on 127.0.0.1; 0 (the default) picks a free one. */
  port?: number;
  /** Everything in the demo household derives from it (default 42). */
  seed?: number;
  /** Real time by default; a ManualClock for tests, a ScaledClock for the demo. */
  clock?: SimClock;
  /** The household's zone: `day` and `date` are local dates there (default Europe/Paris). */
  timeZone?: string;
  /** Current base path (default /api/v1). */
  basePath?: string;
  /** Original base path, still served (default /v1). */
  legacyBasePath?: string;
  /** Requests per minute per token before 429 (default 30, the spec's). */
  rateLimitPerMinute?: number;
  /** Sliding 60 s window (default) or fixed clock minutes. */
  rateWindow?: RateWindow;
  /** Retry-After on 429: absent by default (the spec promises none); seconds, or the window's delay. */
  retryAfterSeconds?: number | "window";
  /** The automatic activity of the demo household; false for a quiet journal that tests fill. */
  activity?: ActivityOptions | false;
  /** Cursor of an empty events page: null (default) or the since it was asked with. */
  emptyPageCursor?: EmptyPageCursor;
  /** Events per page, at most the spec's 100 (default 100). */
  pageSize?: number;
}

export type ResolvedOptions = Required<Omit<SimulatorOptions, "activity" | "retryAfterSeconds">> & {
  activity: Required<ActivityOptions> | false;
  retryAfterSeconds: number | "window" | undefined;
};

/** Defaults in one place, and a RangeError naming the option for a value that cannot work. */
export function resolveOptions(options: SimulatorOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    seed: options.seed ?? 42,
    clock: options.clock ?? realClock,
    timeZone: options.timeZone ?? "Europe/Paris",
    basePath: options.basePath ?? "/api/v1",
    legacyBasePath: options.legacyBasePath ?? "/v1",
    rateLimitPerMinute: options.rateLimitPerMinute ?? 30,
    rateWindow: options.rateWindow ?? "sliding",
    retryAfterSeconds: options.retryAfterSeconds,
    activity:
      options.activity === false
        ? false
        : {
            historyDays: options.activity?.historyDays ?? 7,
            factsPerHour: options.activity?.factsPerHour ?? 0,
          },
    emptyPageCursor: options.emptyPageCursor ?? "null",
    pageSize: options.pageSize ?? 100,
  };
  const problems = [
    !isInteger(resolved.port, 0, 65_535) && "port must be an integer in 0..65535",
    !Number.isSafeInteger(resolved.seed) && "seed must be an integer",
    !isInteger(resolved.rateLimitPerMinute, 1, 1_000_000) && "rateLimitPerMinute must be a positive integer",
    !isInteger(resolved.pageSize, 1, 100) && "pageSize must be an integer in 1..100",
    typeof resolved.retryAfterSeconds === "number" &&
      !isInteger(resolved.retryAfterSeconds, 0, 86_400) &&
      "retryAfterSeconds must be whole seconds",
    resolved.activity &&
      !isInteger(resolved.activity.historyDays, 0, 366) &&
      "activity.historyDays must be 0..366",
    resolved.activity &&
      !(resolved.activity.factsPerHour >= 0 && resolved.activity.factsPerHour <= 3_600) &&
      "activity.factsPerHour must be 0..3600",
    resolved.basePath === resolved.legacyBasePath && "basePath and legacyBasePath must differ",
  ].filter((p): p is string => typeof p === "string");
  if (problems.length > 0) throw new RangeError(`simulator options: ${problems.join("; ")}`);
  assertTimeZone(resolved.timeZone);
  return resolved;
}

function isInteger(value: number, min: number, max: number): boolean {
  return Number.isInteger(value) && value >= min && value <= max;
}
