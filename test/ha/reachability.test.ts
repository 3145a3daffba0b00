import { describe, expect, it } from "vitest";
import { classifyProbe, type ProbeOutcome, type Unreachable } from "../../src/ha/reachability.js";

/** An error as Node or undici throws it: a message and a code. */
function coded(code: string, message = `failed: ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

const table: Array<[string, ProbeOutcome, Unreachable | undefined]> = [
  ["the API answers", { status: 200 }, undefined],
  ["any 2xx", { status: 204 }, undefined],
  [
    "a port nobody listens on",
    { error: coded("ECONNREFUSED") },
    { cause: "connection refused", code: "ECONNREFUSED" },
  ],
  [
    "refused on every address of a dual-stack name (AggregateError)",
    { error: Object.assign(new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")], "")) },
    { cause: "connection refused", code: "ECONNREFUSED" },
  ],
  ["a name no DNS knows", { error: coded("ENOTFOUND") }, { cause: "host not resolvable", code: "ENOTFOUND" }],
  [
    "no DNS answer at all",
    { error: coded("EAI_AGAIN") },
    { cause: "host not resolvable", code: "EAI_AGAIN" },
  ],
  ["no route", { error: coded("EHOSTUNREACH") }, { cause: "host unreachable", code: "EHOSTUNREACH" }],
  [
    "https:// to a plain HTTP port",
    { error: coded("ERR_SSL_WRONG_VERSION_NUMBER") },
    { cause: "TLS failure", code: "ERR_SSL_WRONG_VERSION_NUMBER" },
  ],
  [
    "a certificate for another name",
    { error: coded("ERR_TLS_CERT_ALTNAME_INVALID") },
    { cause: "TLS failure", code: "ERR_TLS_CERT_ALTNAME_INVALID" },
  ],
  [
    "an expired certificate",
    { error: coded("CERT_HAS_EXPIRED") },
    { cause: "TLS failure", code: "CERT_HAS_EXPIRED" },
  ],
  [
    "a self-signed certificate",
    { error: coded("DEPTH_ZERO_SELF_SIGNED_CERT") },
    { cause: "TLS failure", code: "DEPTH_ZERO_SELF_SIGNED_CERT" },
  ],
  ["a TLS protocol error", { error: coded("EPROTO") }, { cause: "TLS failure", code: "EPROTO" }],
  [
    "a server that accepts and never answers",
    { error: coded("UND_ERR_HEADERS_TIMEOUT") },
    { cause: "timeout", code: "UND_ERR_HEADERS_TIMEOUT" },
  ],
  [
    "a connect that never completes",
    { error: coded("UND_ERR_CONNECT_TIMEOUT") },
    { cause: "timeout", code: "UND_ERR_CONNECT_TIMEOUT" },
  ],
  ["the kernel's own timeout", { error: coded("ETIMEDOUT") }, { cause: "timeout", code: "ETIMEDOUT" }],
  [
    "an AbortSignal.timeout()",
    { error: new DOMException("The operation was aborted due to timeout", "TimeoutError") },
    { cause: "timeout" },
  ],
  [
    "the code on a wrapped cause",
    { error: new Error("fetch failed", { cause: coded("ECONNREFUSED") }) },
    { cause: "connection refused", code: "ECONNREFUSED" },
  ],
  [
    "closed without an answer",
    { error: coded("UND_ERR_SOCKET") },
    { cause: "connection closed without an answer", code: "UND_ERR_SOCKET" },
  ],
  ["an unknown code", { error: coded("EWHATEVER") }, { cause: "network error", code: "EWHATEVER" }],
  ["no code at all", { error: new Error("odd") }, { cause: "network error" }],
  ["not even an Error", { error: "odd" }, { cause: "network error" }],
  // The add-on reaches Home Assistant through the Supervisor's proxy: Core stopped behind it.
  ["the Supervisor's proxy, Core away", { status: 502 }, { cause: "HTTP 502", status: 502 }],
  ["a proxy's error", { status: 503 }, { cause: "HTTP 503", status: 503 }],
  ["a refused token", { status: 401 }, { cause: "HTTP 401", status: 401 }],
  ["a redirect (to https, by a proxy)", { status: 301 }, { cause: "HTTP 301", status: 301 }],
];

describe("why Home Assistant cannot be reached", () => {
  it.each(table)("%s", (_, outcome, expected) => {
    expect(classifyProbe(outcome)).toEqual(expected);
  });
});
