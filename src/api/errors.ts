// One error class per way a request to the Reward Facts API can fail, so that callers decide by
// kind (retry, pause the token, mark a child unavailable) and never by parsing a message.
// No message ever carries the token: requests are described by method and path only.
//
// Two families. An ApiError is the request failing: the service could not be reached, answered
// late or too much, or answered with a status that is not a success; whether to try it again is
// its question. A SchemaMismatchError is an answer that came, whole and with a success, and
// cannot be read: no failure of the way there, and nothing a second try would change.

export interface RequestInfo {
  method: string;
  /** Path and query relative to the base URL, e.g. `/children/abc/events?since=…`. */
  path: string;
  /** The base URL the request went to (main or legacy). */
  baseUrl: string;
}

export abstract class ApiError extends Error {
  abstract readonly kind: string;
  /** Whether repeating the same request soon may succeed (p-retry retries only these). */
  abstract readonly retryable: boolean;
  readonly request: RequestInfo;
  readonly status: number | undefined;

  constructor(message: string, request: RequestInfo, status?: number, options?: ErrorOptions) {
    super(withRequest(message, request), options);
    this.name = new.target.name;
    this.request = request;
    this.status = status;
  }
}

/** 400: the `since` query parameter (a stored cursor or a timestamp) was refused. */
export class MalformedSinceError extends ApiError {
  readonly kind = "malformed_since";
  readonly retryable = false;
}

/** 401: token missing, unknown or revoked. */
export class TokenRejectedError extends ApiError {
  readonly kind = "token_rejected";
  readonly retryable = false;
}

/** 403: the child is not covered by this token's household. */
export class ChildNotCoveredError extends ApiError {
  readonly kind = "child_not_covered";
  readonly retryable = false;
}

/** 409: the child's rules have not been synced to the service yet. */
export class RulesNotSyncedError extends ApiError {
  readonly kind = "rules_not_synced";
  readonly retryable = false;
}

/** 429: more than 30 requests a minute with this token. */
export class RateLimitedError extends ApiError {
  readonly kind = "rate_limited";
  // Retrying inside the same minute earns another 429: the caller pauses the whole token instead.
  readonly retryable = false;
  /** Delay asked for by a Retry-After header, when the service sends one (the spec promises none). */
  readonly retryAfterMs: number | undefined;

  constructor(request: RequestInfo, retryAfterMs: number | undefined) {
    super("rate limited by the API", request, 429);
    this.retryAfterMs = retryAfterMs;
  }
}

/** 5xx: the service failed. */
export class ServerError extends ApiError {
  readonly kind = "server_error";
  readonly retryable = true;
}

/** The service could not be reached or did not answer in time (connect, timeout, cut-off body). */
export class NetworkError extends ApiError {
  readonly kind = "network";
  /**
   * Retried when the failure was quick (refused, reset, not resolved); not when it took a timeout
   * to tell: a retry in the same job would hold every other child's reads up that long again. The
   * next poll is its retry.
   */
  readonly retryable: boolean;
  /** A short code of the failure (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, …), never a URL. */
  readonly code: string;

  constructor(request: RequestInfo, code: string, detail: string) {
    super(`API unreachable: ${code}${detail ? ` ${detail}` : ""}`, request);
    this.code = code;
    this.retryable = !/TIMEOUT|TIMEDOUT/.test(code);
  }
}

/**
 * The answer did not come whole within the request's deadline (REQUEST_DEADLINE_MS, headers and
 * body together): a server that trickles its answer, or never sends it. Never retried in the same
 * job: a second try would hold the loop, and every other child's reads, as long again.
 */
export class DeadlineExceededError extends ApiError {
  readonly kind = "deadline_exceeded";
  readonly retryable = false;
  readonly deadlineMs: number;

  constructor(request: RequestInfo, deadlineMs: number) {
    super(`API answer not complete within ${formatMs(deadlineMs)} (headers and body)`, request);
    this.deadlineMs = deadlineMs;
  }
}

/**
 * The answer's body is larger than the client reads (MAX_BODY_BYTES): announced so by its
 * content-length, or found so while streaming it (the rest is not read). Never retried in the same
 * job: the same answer would come again.
 */
export class BodyTooLargeError extends ApiError {
  readonly kind = "body_too_large";
  readonly retryable = false;
  readonly limitBytes: number;
  /** The content-length the answer announced, when it did. */
  readonly announcedBytes: number | undefined;
  /** What the client had read when it stopped (0 when refused on its content-length). */
  readonly readBytes: number;

  constructor(
    request: RequestInfo,
    status: number,
    limitBytes: number,
    sizes: { announcedBytes?: number; readBytes: number },
  ) {
    const announced = sizes.announcedBytes === undefined ? "" : ` (content-length ${sizes.announcedBytes})`;
    super(`API answer larger than ${formatBytes(limitBytes)}${announced}; not read`, request, status);
    this.limitBytes = limitBytes;
    this.announcedBytes = sizes.announcedBytes;
    this.readBytes = sizes.readBytes;
  }
}

/** A status the spec does not name (a 404, a redirect that is never followed with the token, …). */
export class UnexpectedStatusError extends ApiError {
  readonly kind = "unexpected_status";
  readonly retryable = false;
}

/**
 * The answer is not JSON, or its JSON does not match the spec: not an ApiError (the request went
 * through), so never retried; the engine skips what it cannot read and says so once.
 */
export class SchemaMismatchError extends Error {
  override name = "SchemaMismatchError";
  readonly request: RequestInfo;
  /** The answer's status, a success. */
  readonly status: number | undefined;
  /** Where the answer departs from the schema, e.g. `behaviors.2.status: Invalid option`. */
  readonly issues: readonly string[];

  constructor(request: RequestInfo, issues: readonly string[], status?: number) {
    super(withRequest(`unreadable API answer: ${issues.slice(0, 3).join("; ")}`, request));
    this.request = request;
    this.status = status;
    this.issues = issues;
  }
}

/** A message that says which request it is about, by method and path (never the token). */
function withRequest(message: string, request: RequestInfo): string {
  return `${message} (${request.method} ${request.path})`;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
