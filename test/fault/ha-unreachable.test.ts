import { once } from "node:events";
import { mkdtemp } from "node:fs/promises";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger, type Logger } from "../../src/log/logger.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import {
  CuttableLink,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { BridgeProcess } from "../support/bridge-process.js";
import { freeLoopbackPort } from "../support/free-port.js";
import { ownLinkSink } from "../support/own-link-sink.js";
import { silentServer } from "../support/silent-server.js";
import { waitFor } from "../support/wait-for.js";

// Home Assistant unreachable at start (issue 41, probe 6): the websocket library retries silently,
// so the log held only "connecting to Home Assistant". Now a warning names the URL and the cause
// within about 15 s, once per cause, and a line says when the connection is made. Real time, real
// sockets: a closed port, a name that cannot resolve, TLS to a plain HTTP port, a server that
// accepts and never answers, then a real Home Assistant at the address.

const version = testedHomeAssistantVersion();
const WARN = 40;
const TOKEN = "ha-token-that-must-never-show-0123456789";
const CANNOT_REACH = "Home Assistant cannot be reached; still trying";
const PROBED = "Home Assistant's API cannot be reached";
const CONNECTED = "connected to Home Assistant";

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let plainHttp: HttpServer;
const cleanups: Array<() => Promise<unknown> | unknown> = [];

function captureLogger(): { logger: Logger; lines: LogLine[]; raw: string[] } {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line) as LogLine);
      }
      callback();
    },
  });
  return { logger: createLogger({ json: true, level: "debug", destination, secrets: [TOKEN] }), lines, raw };
}

/** An HomeAssistantSink opening against `url` (REST-made states, nothing else): what the bridge does first. */
function openSink(url: string, token = TOKEN) {
  const { logger, lines, raw } = captureLogger();
  const sink = ownLinkSink({ url, token, logger, requireAdmin: true });
  const opened = sink.open().then(
    () => "connected",
    (error: unknown) => error,
  );
  // Not waiting for `opened`: an attempt under way (a silent server's) ends on its own, and is
  // closed then.
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= sink.close();
    return closed;
  };
  cleanups.push(close);
  const warnings = () => lines.filter((line) => line.msg === CANNOT_REACH);
  const probes = () => lines.filter((line) => line.msg === PROBED);
  return { sink, lines, raw, warnings, probes, opened, close };
}

beforeAll(async () => {
  [ha, sim] = await Promise.all([startHomeAssistant({ version }), ApiSimulator.start({ activity: false })]);
  plainHttp = createHttpServer((_, response) => response.end("plain HTTP"));
  plainHttp.listen(0, "127.0.0.1");
  await once(plainHttp, "listening");
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(async () => {
  await new Promise((resolve) => plainHttp?.close(resolve));
  await sim?.stop();
  await ha?.stop();
});

describe(`Home Assistant unreachable at start (connected at last to ${version})`, () => {
  it("warns within about 15 s with the URL and the cause, once while the cause stays", async () => {
    const closedPort = await freeLoopbackPort();
    const silent = await silentServer();
    cleanups.push(() => silent.close());
    const plainPort = (plainHttp.address() as { port: number }).port;
    const cases = [
      { url: `http://127.0.0.1:${closedPort}`, cause: "connection refused", code: "ECONNREFUSED" },
      { url: "http://reward-facts-nowhere.invalid:8123", cause: "host not resolvable" },
      { url: `https://127.0.0.1:${plainPort}`, cause: "TLS failure" },
      { url: `http://127.0.0.1:${silent.port}`, cause: "timeout", code: "UND_ERR_HEADERS_TIMEOUT" },
    ].map((expected) => ({ expected, run: openSink(expected.url) }));
    // The bridge itself, as users run it: the same line in its own log.
    const bridge = new BridgeProcess({
      REWARD_FACTS_API_TOKEN: sim.tokens.household,
      REWARD_FACTS_API_BASE_URL: sim.url,
      HA_URL: `http://127.0.0.1:${closedPort}`,
      HA_TOKEN: TOKEN,
      REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-unreachable-")),
    }).start();
    cleanups.push(() => bridge.kill());

    // Within about 15 s of the start (the slowest, a silent server, is said after 10 s).
    const deadline = Date.now() + 20_000;
    for (const { expected, run } of cases)
      await waitFor(() => run.warnings().length > 0, {
        timeoutMs: Math.max(0, deadline - Date.now()),
        description: () => `a warning for ${expected.url}; logged: ${run.raw.join("\n")}`,
      });
    for (const { expected, run } of cases) {
      expect(run.warnings()[0]).toMatchObject({ level: WARN, url: expected.url, cause: expected.cause });
      if (expected.code) expect(run.warnings()[0]?.code).toBe(expected.code);
    }
    // The bridge takes a few seconds more to start (tsx).
    await waitFor(() => /WARN.*Home Assistant cannot be reached.*connection refused/.test(bridge.text()), {
      timeoutMs: Math.max(0, deadline + 5_000 - Date.now()),
      description: () => `the bridge's warning; it said:\n${bridge.text()}`,
    });
    expect(bridge.text()).toContain(`http://127.0.0.1:${closedPort}`);

    // Probed again (10 s on) with the same cause: not said again.
    for (const { expected, run } of cases)
      await waitFor(() => run.probes().length >= 2, {
        timeoutMs: 30_000,
        description: () => `a second probe of ${expected.url}`,
      });
    for (const { expected, run } of cases) {
      expect(run.probes().every((line) => line.cause === expected.cause)).toBe(true);
      expect(run.warnings()).toHaveLength(1);
      expect(run.lines.some((line) => line.msg === CONNECTED)).toBe(false);
    }
    // Never the token, in any line of any of them.
    for (const { run } of cases) expect(run.raw.join("\n")).not.toContain(TOKEN);
    expect(bridge.text()).not.toContain(TOKEN);
  }, 90_000);

  it("says when the cause changes, and once when Home Assistant appears at the address", async () => {
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}`;
    const run = openSink(url, ha.token);
    await waitFor(() => run.warnings().length === 1, { timeoutMs: 20_000, description: "the first warning" });
    expect(run.warnings()[0]).toMatchObject({ url, cause: "connection refused" });

    // Something now listens there but never answers: a new cause, said once.
    const silent = await silentServer(port);
    await waitFor(() => run.warnings().length === 2, {
      timeoutMs: 30_000,
      description: "the second warning",
    });
    expect(run.warnings()[1]).toMatchObject({ url, cause: "timeout" });
    await silent.close();

    // Home Assistant at that address at last.
    const link = await CuttableLink.open(ha.url, port);
    cleanups.push(() => link.close());
    expect(await run.opened).toBe("connected");
    await run.sink.whenReady(AbortSignal.timeout(60_000));
    const connected = run.lines.filter((line) => line.msg === CONNECTED);
    expect(connected).toHaveLength(1);
    expect(connected[0]).toMatchObject({ level: 30, url });
    // Nothing more about reaching it once connected.
    const after = run.lines.slice(run.lines.indexOf(connected[0] as LogLine));
    expect(after.filter((line) => line.msg === CANNOT_REACH || line.msg === PROBED)).toEqual([]);
    expect(run.raw.join("\n")).not.toContain(ha.token);
  }, 90_000);

  it("after a drop that lasts, says why once (not at once: restarts are normal), and when it is back", async () => {
    const first = await CuttableLink.open(ha.url);
    const port = Number(new URL(first.url).port);
    const run = openSink(first.url, ha.token);
    expect(await run.opened).toBe("connected");
    await run.sink.whenReady(AbortSignal.timeout(30_000));
    // The network goes, and nothing listens at the address any more: every reconnection is refused.
    const droppedAt = Date.now();
    await first.close();
    await waitFor(() => run.warnings().length === 1, { timeoutMs: 45_000, description: "the warning" });
    expect(run.warnings()[0]).toMatchObject({ level: WARN, url: first.url, cause: "connection refused" });
    // pino's \`time\`: when the line was written, in ms. Not before the probe's 30 s.
    expect(Number(run.warnings()[0]?.time)).toBeGreaterThanOrEqual(droppedAt + 25_000);
    const again = await CuttableLink.open(ha.url, port);
    cleanups.push(() => again.close());
    await waitFor(() => run.lines.filter((line) => line.msg === CONNECTED).length === 2, {
      timeoutMs: 20_000,
      description: "the second connected line",
    });
    await run.sink.whenReady(AbortSignal.timeout(30_000));
    expect(run.warnings()).toHaveLength(1);
  }, 90_000);

  it("stops trying when closed before Home Assistant answered, and never connects later", async () => {
    const port = await freeLoopbackPort();
    const run = openSink(`http://127.0.0.1:${port}`, ha.token);
    // A few attempts fail (the first connection is tried every second)…
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await run.close();
    const outcome = await run.opened;
    expect((outcome as Error).name).toBe("HomeAssistantNotConnectedError");
    // …then Home Assistant appears at the address: a closed sink does not connect to it.
    const link = await CuttableLink.open(ha.url, port);
    cleanups.push(() => link.close());
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(run.lines.filter((line) => line.msg === CONNECTED)).toEqual([]);
    expect(run.sink.ready).toBe(false);
  });

  it("still ends start-up when Home Assistant refuses the token", async () => {
    const run = openSink(ha.url, "not-a-token-of-this-home-assistant");
    const outcome = await run.opened;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).name).toBe("SinkRefusedError");
    expect(run.warnings()).toEqual([]);
  });
});
