import { type Dispatcher, Pool, request } from "../http/undici.js";
import type { Logger } from "../log/logger.js";
import { scrubSecrets } from "../log/logger.js";
import type * as z from "../zod.js";
import { parseChildren } from "./children-list.js";
import { Deadline } from "./deadline.js";
import { baseUrlProblem, tokenProblem } from "./endpoint-rules.js";
import {
  type ApiError,
  BodyTooLargeError,
  ChildNotCoveredError,
  DeadlineExceededError,
  MalformedSinceError,
  NetworkError,
  RateLimitedError,
  type RequestInfo,
  RulesNotSyncedError,
  SchemaMismatchError,
  ServerError,
  TokenRejectedError,
  UnexpectedStatusError,
} from "./errors.js";
import { parseEventsPage, type ReadEventsPage } from "./events-page.js";
import { issuesOf } from "./issues.js";
import { MAX_BODY_BYTES, MAX_PAUSE_MS, REQUEST_DEADLINE_MS } from "./limits.js";
import { readCappedBody } from "./read-body.js";
import { headerText, parseRetryAfter } from "./retry-after.js";
import { type Child, errorBodySchema, type Today, todaySchema } from "./schemas.js";

export interface ApiClientOptions {
  token: string;
  baseUrl: string;
  /** The original base address; tried when the main one fails at the network level. */
  legacyBaseUrl?: string | undefined;
  logger: Logger;
  /** The deadline of one request, headers and body together (REQUEST_DEADLINE_MS by default). */
  timeoutMs?: number;
  /**
   * Awaited before every HTTP request leaves, retries and legacy fallbacks included: the token's
   * rate budget plugs in here, so that it counts what the API counts. What it returns is called
   * once the request has its answer, or has failed.
   */
  beforeRequest?: (signal: AbortSignal | undefined) => Promise<(() => void) | undefined>;
  dispatcher?: Dispatcher;
}

export class ClientOptionsError extends Error {
  override name = "ClientOptionsError";
}

/** The read-only Household Reward Facts API v1, over undici. */
export class RewardFactsClient {
  readonly #token: string;
  readonly #bases: string[];
  readonly #logger: Logger;
  readonly #beforeRequest: ApiClientOptions["beforeRequest"];
  /** By base address: an undici pool of the client's own per origin, or the dispatcher given. */
  readonly #dispatchers = new Map<string, Dispatcher>();
  readonly #ownsDispatchers: boolean;
  readonly #timeoutMs: number;
  /** The unreadable entries of the children's list already reported (see parseChildren). */
  readonly #unreadableChildren = new Set<string>();
  /** Index in #bases of the address that answered last; tried first. */
  #preferred = 0;

  constructor(options: ApiClientOptions) {
    const problem = tokenProblem(options.token);
    if (problem) throw new ClientOptionsError(`API token ${problem}`);
    this.#bases = [options.baseUrl, options.legacyBaseUrl]
      .filter((b): b is string => typeof b === "string" && b !== "")
      .map((base) => {
        const urlProblem = baseUrlProblem(base);
        if (urlProblem) throw new ClientOptionsError(`API base URL ${urlProblem}`);
        return base.replace(/\/+$/, "");
      });
    this.#token = options.token;
    this.#logger = options.logger;
    this.#beforeRequest = options.beforeRequest;
    this.#timeoutMs = options.timeoutMs ?? REQUEST_DEADLINE_MS;
    this.#ownsDispatchers = options.dispatcher === undefined;
    // A pool per origin, kept for the client's life, rather than an Agent: an Agent drops an
    // origin's pool, and the connection's client with it, once its last connection closes, and
    // builds both again at the next request. The gap between two polls is longer than the API's
    // keep-alive, so that was almost every request. A kept pool only opens a new connection: a
    // steady bridge's CPU went from 270 to 240-250 ms in the bench's 240 s window (Node 26, the
    // image's flags, two scratch runs each, side by side).
    const pools = new Map<string, Dispatcher>();
    for (const base of this.#bases) {
      const { origin } = new URL(base);
      const dispatcher =
        options.dispatcher ??
        pools.get(origin) ??
        new Pool(origin, {
          connectTimeout: Math.min(this.#timeoutMs, 10_000),
          // Off: each request's deadline covers the headers and the body together (#getOnce).
          // undici's measure only the wait for the headers and the gap between two chunks.
          headersTimeout: 0,
          bodyTimeout: 0,
        });
      pools.set(origin, dispatcher);
      this.#dispatchers.set(base, dispatcher);
    }
  }

  /** GET /children: the children covered by the token. */
  async listChildren(signal?: AbortSignal): Promise<Child[]> {
    const { body, info } = await this.#get("/children", signal);
    return parseChildren(body, info, this.#logger, this.#unreadableChildren);
  }

  /** GET /children/{id}/today: a TodayPayload, or a CalmDay on the other household's day. */
  async getToday(childId: string, signal?: AbortSignal): Promise<Today> {
    return this.#getJson(`/children/${encodeURIComponent(childId)}/today`, todaySchema, signal);
  }

  /**
   * GET /children/{id}/events. `since` is the stored cursor, passed back unchanged, or an ISO 8601
   * timestamp; it is URL-encoded (a cursor holds a comma, an offset a `+`). Events of a type this
   * client does not know, or that it cannot read, are skipped with a warning; the page's cursor
   * still moves past them.
   */
  async getEvents(childId: string, since?: string, signal?: AbortSignal): Promise<ReadEventsPage> {
    const query = since === undefined ? "" : `?since=${encodeURIComponent(since)}`;
    const path = `/children/${encodeURIComponent(childId)}/events${query}`;
    const { body, info } = await this.#get(path, signal);
    return parseEventsPage(body, info, this.#logger);
  }

  async close(): Promise<void> {
    if (!this.#ownsDispatchers) return;
    await Promise.all([...new Set(this.#dispatchers.values())].map((pool) => pool.close()));
  }

  async #getJson<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    signal?: AbortSignal,
  ): Promise<z.infer<S>> {
    const { body, info } = await this.#get(path, signal);
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new SchemaMismatchError(info, issuesOf(parsed.error), 200);
    return parsed.data;
  }

  /** One GET, on the preferred base address, then on the other when the first is unreachable. */
  async #get(path: string, signal?: AbortSignal): Promise<{ body: unknown; info: RequestInfo }> {
    const order = this.#bases.map((_, i) => (this.#preferred + i) % this.#bases.length);
    let lastError: unknown;
    for (const index of order) {
      const base = this.#bases[index] as string;
      try {
        const result = await this.#getOnce(base, path, signal);
        if (index !== this.#preferred) {
          this.#logger.warn({ base: describeBase(base) }, "API answered on the other base address; using it");
          this.#preferred = index;
        }
        return result;
      } catch (error) {
        if (!(error instanceof NetworkError) || signal?.aborted) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  async #getOnce(
    base: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ body: unknown; info: RequestInfo }> {
    const info: RequestInfo = { method: "GET", path, baseUrl: describeBase(base) };
    const settle = await this.#beforeRequest?.(signal);
    // From here, not before: the wait for the budget is the bridge's own, not the API's.
    const deadline = new Deadline(this.#timeoutMs, signal);
    let response: Dispatcher.ResponseData;
    let text: string;
    try {
      signal?.throwIfAborted();
      try {
        response = await request(`${base}${path}`, {
          method: "GET",
          headers: { authorization: `Bearer ${this.#token}`, accept: "application/json" },
          dispatcher: this.#dispatchers.get(base),
          signal: deadline.signal,
        });
      } catch (error) {
        throw this.#transportError(info, error, signal, deadline);
      }
      const announced = contentLength(response.headers["content-length"]);
      if (announced !== undefined && announced > MAX_BODY_BYTES) {
        // Dropped unread: destroying the body closes the connection before more of it comes. It
        // then emits the abort as an error, which nobody else listens to.
        response.body.on("error", () => undefined).destroy();
        throw new BodyTooLargeError(info, response.statusCode, MAX_BODY_BYTES, {
          announcedBytes: announced,
          readBytes: 0,
        });
      }
      let reading: Awaited<ReturnType<typeof readCappedBody>>;
      try {
        reading = await readCappedBody(response.body, MAX_BODY_BYTES);
      } catch (error) {
        throw this.#transportError(info, error, signal, deadline);
      }
      if (!reading.complete) {
        throw new BodyTooLargeError(info, response.statusCode, MAX_BODY_BYTES, {
          readBytes: reading.readBytes,
        });
      }
      text = reading.text;
    } finally {
      deadline.clear();
      settle?.();
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      try {
        return { body: JSON.parse(text) as unknown, info };
      } catch {
        throw new SchemaMismatchError(info, [`body is not JSON (${text.length} characters)`], status);
      }
    }
    throw this.#statusError(info, status, text, response.headers["retry-after"]);
  }

  #statusError(info: RequestInfo, status: number, text: string, retryAfter: unknown): ApiError {
    const detail = this.#errorText(text);
    const message = (what: string) => (detail ? `${what}: ${detail}` : what);
    switch (status) {
      case 400:
        return new MalformedSinceError(message("since refused by the API"), info, status);
      case 401:
        return new TokenRejectedError(message("API token missing, unknown or revoked"), info, status);
      case 403:
        return new ChildNotCoveredError(message("child not covered by this token"), info, status);
      case 409:
        return new RulesNotSyncedError(message("no rules synced yet"), info, status);
      case 429:
        return new RateLimitedError(info, this.#boundedRetryAfter(retryAfter));
    }
    if (status >= 500) return new ServerError(message(`API server error ${status}`), info, status);
    if (status >= 300 && status < 400) {
      return new UnexpectedStatusError(
        `redirect ${status} not followed (the token stays here)`,
        info,
        status,
      );
    }
    return new UnexpectedStatusError(message(`unexpected status ${status}`), info, status);
  }

  /**
   * The pause a 429's Retry-After asks for, held to MAX_PAUSE_MS: what the API asked beyond it is
   * said once, with what the bridge does instead.
   */
  #boundedRetryAfter(header: unknown): number | undefined {
    const asked = parseRetryAfter(header);
    if (asked === undefined || asked <= MAX_PAUSE_MS) return asked;
    this.#logger.warn(
      {
        retryAfter: scrubSecrets(headerText(header) ?? "", [this.#token]).slice(0, 80),
        askedMs: Number.isFinite(asked) ? asked : String(asked),
        pauseMs: MAX_PAUSE_MS,
      },
      `the API asked for a pause longer than the bridge ever takes (Retry-After); pausing ${MAX_PAUSE_MS / 60_000} minutes instead`,
    );
    return MAX_PAUSE_MS;
  }

  /** The service's error text, short and scrubbed: it is echoed into logs. */
  #errorText(text: string): string {
    let message: string | undefined;
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(text));
      if (parsed.success) message = parsed.data.error;
    } catch {
      message = undefined;
    }
    return message === undefined ? "" : scrubSecrets(message, [this.#token]).slice(0, 200);
  }

  /** What a failure to get the answer, or to read it whole, means: the caller's abort first. */
  #transportError(
    info: RequestInfo,
    error: unknown,
    signal: AbortSignal | undefined,
    deadline: Deadline,
  ): Error {
    if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error("aborted");
    if (deadline.expired) return new DeadlineExceededError(info, this.#timeoutMs);
    const code =
      (error as { code?: unknown })?.code ??
      (error as { cause?: { code?: unknown } })?.cause?.code ??
      "UNKNOWN";
    const detail = error instanceof Error ? scrubSecrets(error.message, [this.#token]).slice(0, 120) : "";
    return new NetworkError(info, String(code), detail);
  }
}

/** Origin and path of a base URL, for logs and errors (never credentials, never a query). */
function describeBase(base: string): string {
  const url = new URL(base);
  return `${url.origin}${url.pathname === "/" ? "" : url.pathname}`;
}

/** A content-length header as a number of bytes; undefined when absent or unreadable. */
function contentLength(value: unknown): number | undefined {
  const text = headerText(value);
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}
