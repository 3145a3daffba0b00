// Why Home Assistant cannot be reached, for the log. home-assistant-js-websocket retries a
// connection silently and tells no cause (a refused port, a name that does not resolve and a
// silent proxy all look alike to it), so while the link is down a plain HTTP request to the API
// asks the network what is wrong: `<url>/api/` with the token (Home Assistant answers 200; without
// the token it would count a failed login and show a notification of its own each time).

import { Agent, request } from "../../http/undici.js";
import type { Logger } from "../../log/logger.js";
import { sleep } from "../../time/sleep.js";

/** Why a probe did not reach Home Assistant's API. */
export interface Unreachable {
  /** Words for a person: `connection refused`, `host not resolvable`, `TLS failure`, `timeout`, `HTTP 502`… */
  cause: string;
  /** The error's code (ECONNREFUSED, ENOTFOUND, ERR_SSL_WRONG_VERSION_NUMBER…), to search for. */
  code?: string;
  /** The HTTP status, when something answered with an error (a proxy in the way, or Core stopped). */
  status?: number;
}

/** What a probe got: an answer's status, or the error the request failed with. */
export type ProbeOutcome = { status: number } | { error: unknown };

const causesByCode: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not resolvable",
  EAI_AGAIN: "host not resolvable",
  EAI_NONAME: "host not resolvable",
  EAI_FAIL: "host not resolvable",
  EAI_NODATA: "host not resolvable",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "host unreachable",
  EHOSTDOWN: "host unreachable",
  ENETDOWN: "host unreachable",
  ETIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  UND_ERR_BODY_TIMEOUT: "timeout",
  ECONNRESET: "connection closed without an answer",
  EPIPE: "connection closed without an answer",
  UND_ERR_SOCKET: "connection closed without an answer",
  // OpenSSL's verification results, which Node gives as codes without a prefix.
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS failure",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS failure",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS failure",
  UNABLE_TO_GET_ISSUER_CERT: "TLS failure",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS failure",
  HOSTNAME_MISMATCH: "TLS failure",
  EPROTO: "TLS failure",
};

const tlsPrefixes = ["CERT_", "ERR_TLS_", "ERR_SSL_"];

/** The first error code in an error, its causes and an AggregateError's errors (a dual-stack connect). */
function codeOf(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 4) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && code !== "") return code;
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = codeOf(inner, depth + 1);
      if (found) return found;
    }
  }
  return codeOf(cause, depth + 1);
}

/** Pure: undefined when the API answered (2xx), else why it could not be reached. */
export function classifyProbe(outcome: ProbeOutcome): Unreachable | undefined {
  if ("status" in outcome) {
    const { status } = outcome;
    return status >= 200 && status < 300 ? undefined : { cause: `HTTP ${status}`, status };
  }
  const code = codeOf(outcome.error);
  const name = (outcome.error as { name?: unknown } | null)?.name;
  if (!code) return { cause: name === "TimeoutError" ? "timeout" : "network error" };
  const cause =
    causesByCode[code] ??
    (tlsPrefixes.some((prefix) => code.startsWith(prefix)) ? "TLS failure" : "network error");
  return { cause, code };
}

export interface ReachabilityOptions {
  /** Home Assistant's base URL, as the bridge was given it. */
  url: string;
  token: string;
  logger: Logger;
  /** Between probes. */
  everyMs?: number;
  /** A probe's connect, and its wait for an answer. */
  timeoutMs?: number;
}

/**
 * Probes Home Assistant while the link is down and logs why it cannot be reached: once per cause
 * (again only when the cause changes), and once when the link is made after that.
 */
export class Reachability {
  readonly #o: Required<ReachabilityOptions>;
  readonly #apiUrl: string;
  /** The cause logged last in this spell (`cause code/status`); undefined: none, or reachable since. */
  #reported: string | undefined;
  #saidSomething = false;
  #everConnected = false;

  constructor(options: ReachabilityOptions) {
    this.#o = { everyMs: 10_000, timeoutMs: 5_000, ...options };
    this.#apiUrl = new URL("api/", `${options.url.replace(/\/+$/, "")}/`).href;
  }

  /**
   * Probes `firstAfterMs` after it is called, then every `everyMs`, until the signal aborts (the
   * link is up, or the bridge stops). Never rejects.
   */
  async watch(firstAfterMs: number, signal: AbortSignal): Promise<void> {
    this.#reported = undefined;
    this.#saidSomething = false;
    const timeout = this.#o.timeoutMs;
    const agent = new Agent({ connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout });
    try {
      await sleep(firstAfterMs, signal);
      for (;;) {
        const outcome = await this.#probe(agent, signal);
        if (signal.aborted) return;
        const unreachable = classifyProbe(outcome);
        this.#report(unreachable);
        // A refused token: the link says so itself, and each probe would count as a failed login.
        if (unreachable?.status === 401 || unreachable?.status === 403) return;
        await sleep(this.#o.everyMs, signal);
      }
    } catch {
      // Aborted while waiting: the link is up, or the bridge stops.
    } finally {
      await agent.destroy().catch(() => undefined);
    }
  }

  /** The link is made: said the first time, and after a spell in which a cause was logged. */
  connected(): void {
    if (!this.#everConnected || this.#saidSomething)
      this.#o.logger.info({ url: this.#o.url }, "connected to Home Assistant");
    this.#everConnected = true;
    this.#saidSomething = false;
    this.#reported = undefined;
  }

  async #probe(agent: Agent, signal: AbortSignal): Promise<ProbeOutcome> {
    try {
      const response = await request(this.#apiUrl, {
        dispatcher: agent,
        headers: { authorization: `Bearer ${this.#o.token}` },
        signal,
      });
      await response.body.dump();
      return { status: response.statusCode };
    } catch (error) {
      return { error };
    }
  }

  #report(unreachable: Unreachable | undefined): void {
    const { url, logger } = this.#o;
    if (!unreachable) {
      logger.debug({ url }, "Home Assistant's API answers; waiting for its websocket");
      this.#reported = undefined;
      return;
    }
    const key = `${unreachable.cause} ${unreachable.code ?? unreachable.status ?? ""}`;
    logger.debug({ url, ...unreachable }, "Home Assistant's API cannot be reached");
    if (key === this.#reported) return;
    this.#reported = key;
    this.#saidSomething = true;
    logger.warn({ url, ...unreachable }, "Home Assistant cannot be reached; still trying");
  }
}
