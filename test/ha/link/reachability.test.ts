import { createServer } from "node:net";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  classifyProbe,
  type ProbeOutcome,
  Reachability,
  type Unreachable,
} from "../../../src/ha/link/reachability.js";
import { createLogger, type Logger } from "../../../src/log/logger.js";
import { type SilentServer, silentServer } from "../../support/silent-server.js";
import { waitFor } from "../../support/wait-for.js";

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

// The probes themselves, against what a Home Assistant that is not there looks like on loopback: a
// port nobody listens on, then one that takes the connection and never answers. The outcomes are
// counts of log lines, whatever the timing of the probes (a few milliseconds apart here).

interface LogLine {
  level: number;
  msg: string;
  cause?: string;
  code?: string;
  url?: string;
}

function capturingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean))
        lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return { logger: createLogger({ json: true, level: "debug", destination }), lines };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const UNREACHABLE = "Home Assistant's API cannot be reached";
const STILL_TRYING = "Home Assistant cannot be reached; still trying";
const CONNECTED = "connected to Home Assistant";

const servers: SilentServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

describe("probing Home Assistant while the link is down", () => {
  it("warns once per cause, again when the cause changes, and says so when the link is made", async () => {
    const { logger, lines } = capturingLogger();
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const reachability = new Reachability({ url, token: "t", logger, everyMs: 5, timeoutMs: 100 });
    const probes = (cause: string) => lines.filter((l) => l.msg === UNREACHABLE && l.cause === cause).length;
    const link = new AbortController();
    const watching = reachability.watch(0, link.signal);

    await waitFor(() => probes("connection refused") >= 3);
    // Home Assistant's port taken by something that never answers (a proxy, a Core that hangs).
    servers.push(await silentServer(port));
    // Each probe waits for the timeout; under a loaded machine two of them can take seconds.
    await waitFor(() => probes("timeout") >= 2, { timeoutMs: 20_000 });
    link.abort();
    await watching;

    expect(lines.filter((l) => l.msg === STILL_TRYING).map((l) => [l.level, l.cause, l.url])).toEqual([
      [40, "connection refused", url],
      [40, "timeout", url],
    ]);
    reachability.connected();
    expect(lines.filter((l) => l.msg === CONNECTED)).toEqual([expect.objectContaining({ level: 30, url })]);
  });

  it("says connected the first time, and afterwards only after a spell it said something of", async () => {
    const { logger, lines } = capturingLogger();
    const reachability = new Reachability({
      url: `http://127.0.0.1:${await closedPort()}`,
      token: "t",
      logger,
      everyMs: 5,
    });
    reachability.connected();
    // A drop the link recovered from before the first probe: nothing was said, nothing to undo.
    const quick = new AbortController();
    const watching = reachability.watch(60_000, quick.signal);
    quick.abort();
    await watching;
    reachability.connected();
    expect(lines.filter((l) => l.msg === CONNECTED)).toHaveLength(1);
    expect(lines.filter((l) => l.msg === UNREACHABLE)).toEqual([]);

    const longer = new AbortController();
    const again = reachability.watch(0, longer.signal);
    await waitFor(() => lines.some((l) => l.msg === STILL_TRYING));
    longer.abort();
    await again;
    reachability.connected();
    expect(lines.filter((l) => l.msg === CONNECTED)).toHaveLength(2);
  });

  it("ends a probe under way when the link is made, without a word about it", async () => {
    const { logger, lines } = capturingLogger();
    const server = await silentServer();
    servers.push(server);
    const reachability = new Reachability({
      url: `http://127.0.0.1:${server.port}`,
      token: "t",
      logger,
      timeoutMs: 60_000,
    });
    const link = new AbortController();
    const watching = reachability.watch(0, link.signal);
    await waitFor(() => server.accepted > 0);
    link.abort();
    await watching;
    expect(lines).toEqual([]);
  });
});
