import diagnostics from "node:diagnostics_channel";
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ClientOptionsError, type RewardFactsClient } from "../../src/api/client.js";
import {
  ApiError,
  BodyTooLargeError,
  ChildNotCoveredError,
  DeadlineExceededError,
  MalformedSinceError,
  NetworkError,
  RateLimitedError,
  RulesNotSyncedError,
  SchemaMismatchError,
  ServerError,
  TokenRejectedError,
  UnexpectedStatusError,
} from "../../src/api/errors.js";
import { MAX_BODY_BYTES, MAX_PAUSE_MS, REQUEST_DEADLINE_MS } from "../../src/api/limits.js";
import type { ApiSimulator, ManualClock } from "../../src/simulator/index.js";
import {
  captureLogger,
  errorText,
  newClient,
  rawGet,
  START_DAY,
  startQuiet,
  untilIo,
} from "../simulator/helpers.js";

// Every failure the client can meet, each against the simulator over loopback. The errors and
// log lines of the whole file are kept, and the last test checks that no token shows in them.

const UNKNOWN_TOKEN = `rf_api_${"0123456789".repeat(4)}`;
const collectedErrors: unknown[] = [];
// One logger for every client of the file, so that every line they write is checked.
const { logger, lines: collectedLines } = captureLogger();
const tokensSeen = new Set<string>([UNKNOWN_TOKEN]);

/** A port nothing listens on any more: bound, then closed. */
async function portOfAClosedServer(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rejection<E extends Error>(
  promise: Promise<unknown>,
  kind: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  collectedErrors.push(error);
  expect(error).toBeInstanceOf(kind);
  return error as E;
}

let sim: ApiSimulator;
let clock: ManualClock;
let client: RewardFactsClient;

beforeEach(async () => {
  ({ sim, clock } = await startQuiet());
  tokensSeen.add(sim.tokens.household).add(sim.tokens.other);
  client = newClient(sim, logger);
});

afterEach(async () => {
  vi.useRealTimers();
  await client.close();
  await sim.stop();
});

describe("answers", () => {
  it("lists the household's children", async () => {
    const { ordinary, custody, unsynced } = sim.children;
    expect(await client.listChildren()).toEqual([ordinary, custody, unsynced]);
  });

  it("reads today and events", async () => {
    const today = await client.getToday(sim.children.ordinary.id);
    expect(today).toMatchObject({ date: START_DAY, isMyDay: true, period: "school" });
    const cheer = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent", cheer: "super" });
    const page = await client.getEvents(sim.children.ordinary.id, `${START_DAY}T00:00:00Z`);
    expect(page.events).toEqual([cheer]);
  });
});

describe("401: token missing, unknown or revoked", () => {
  it("answers 401 with an error body when no token is sent", async () => {
    const answer = await rawGet(`${sim.url}/children`);
    expect(answer.status).toBe(401);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.json).toEqual({ error: expect.any(String) });
  });

  it("refuses an unknown token", async () => {
    const stranger = newClient(sim, logger, { token: UNKNOWN_TOKEN });
    const error = await rejection(stranger.listChildren(), TokenRejectedError);
    expect(error.status).toBe(401);
    await stranger.close();
  });

  it("refuses a revoked token, and takes it back once restored", async () => {
    sim.revokeToken(sim.tokens.household);
    await rejection(client.listChildren(), TokenRejectedError);
    await rejection(client.getToday(sim.children.ordinary.id), TokenRejectedError);
    await rejection(client.getEvents(sim.children.ordinary.id), TokenRejectedError);
    sim.restoreToken(sim.tokens.household);
    expect(await client.listChildren()).toHaveLength(3);
  });
});

describe("403: child not covered by the token", () => {
  it("refuses the other household's child, both ways", async () => {
    await rejection(client.getToday(sim.children.other.id), ChildNotCoveredError);
    await rejection(client.getEvents(sim.children.other.id), ChildNotCoveredError);
    const other = newClient(sim, logger, { token: sim.tokens.other });
    expect(await other.listChildren()).toEqual([sim.children.other]);
    await rejection(other.getToday(sim.children.ordinary.id), ChildNotCoveredError);
    await other.close();
  });

  it("refuses an unknown child id", async () => {
    await rejection(client.getToday("00000000-0000-4000-8000-000000000000"), ChildNotCoveredError);
  });

  it("refuses a child who moved out, who is no longer listed either", async () => {
    const { custody } = sim.children;
    sim.moveChildOut(custody.id);
    expect((await client.listChildren()).map((c) => c.id)).not.toContain(custody.id);
    const error = await rejection(client.getToday(custody.id), ChildNotCoveredError);
    expect(error.status).toBe(403);
    await rejection(client.getEvents(custody.id), ChildNotCoveredError);
    sim.moveChildIn(custody.id);
    expect((await client.getToday(custody.id)).date).toBe(START_DAY);
  });
});

describe("409: rules not synced", () => {
  it("refuses today for the unsynced child until its rules are synced, but serves its events", async () => {
    const { unsynced } = sim.children;
    const error = await rejection(client.getToday(unsynced.id), RulesNotSyncedError);
    expect(error.status).toBe(409);
    expect(await client.getEvents(unsynced.id)).toMatchObject({ events: [], cursor: null });
    sim.syncRules(unsynced.id);
    expect(await client.getToday(unsynced.id)).toMatchObject({ isMyDay: true });
    sim.unsyncRules(sim.children.ordinary.id);
    await rejection(client.getToday(sim.children.ordinary.id), RulesNotSyncedError);
  });
});

describe("400: malformed since", () => {
  it.each([
    "garbage",
    "",
    "2026-01-15",
    "2026-01-15T10:00:00",
    "2026-13-01T00:00:00Z",
    "2026-02-30T00:00:00Z",
    "2026-01-15T24:00:00Z",
    "2026-01-15T10:00:00+25:00",
    "notadate,3f1c9a2e-0000-4000-8000-000000000000",
    "2026-01-15T10:00:00.000+01:00,",
    ",3f1c9a2e-0000-4000-8000-000000000000",
    "2026-01-15T10:00:00Z,a b",
  ])("refuses %j", async (since) => {
    const error = await rejection(client.getEvents(sim.children.ordinary.id, since), MalformedSinceError);
    expect(error.status).toBe(400);
  });
});

describe("429: more than 30 requests a minute", () => {
  it("answers 429 to the 31st request of the minute, without Retry-After by default", async () => {
    for (let i = 0; i < 30; i++) await client.listChildren();
    const error = await rejection(client.listChildren(), RateLimitedError);
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBeUndefined();
    clock.advance(60_000);
    expect(await client.listChildren()).toHaveLength(3);
  });

  it("sets retryAfterMs when the simulator sends Retry-After", async () => {
    const { sim: limited } = await startQuiet({ retryAfterSeconds: 12 });
    tokensSeen.add(limited.tokens.household);
    const limitedClient = newClient(limited, logger);
    for (let i = 0; i < 30; i++) await limitedClient.getToday(limited.children.ordinary.id);
    const error = await rejection(limitedClient.getEvents(limited.children.ordinary.id), RateLimitedError);
    expect(error.retryAfterMs).toBe(12_000);
    await limitedClient.close();
    await limited.stop();
  });
});

describe("server failures and unreadable answers", () => {
  it("turns a 5xx into a retryable ServerError, then answers again", async () => {
    sim.failNext(1, { kind: "status", status: 503 });
    const error = await rejection(client.listChildren(), ServerError);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect(await client.listChildren()).toHaveLength(3);
  });

  it("turns a body that is not JSON into a SchemaMismatchError, no failure of the request", async () => {
    sim.failNext(1, { kind: "malformed-json" });
    const error = await rejection(client.getToday(sim.children.ordinary.id), SchemaMismatchError);
    // Not an ApiError: nothing asks whether to try it again.
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error.message).toMatch(
      /^unreadable API answer: body is not JSON \(\d+ characters\) \(GET \/children\/.+\/today\)$/,
    );
    expect(error).toMatchObject({ name: "SchemaMismatchError", status: 200 });
  });

  it("turns JSON that is not the spec's into a SchemaMismatchError naming the place and the fault", async () => {
    sim.failNext(1, { kind: "body", body: { children: [{ id: 7, firstName: "Léa" }] } });
    const children = await rejection(client.listChildren(), SchemaMismatchError);
    // In words for the log reader: zod/mini alone says only "Invalid input" (src/zod.ts).
    expect(children.issues).toEqual(["(root): Invalid input: expected array, received object"]);
    sim.failNext(1, { kind: "body", body: { date: START_DAY, isMyDay: true } });
    await rejection(client.getToday(sim.children.ordinary.id), SchemaMismatchError);
    sim.failNext(1, { kind: "body", body: { events: "none", cursor: null } });
    await rejection(client.getEvents(sim.children.ordinary.id), SchemaMismatchError);
  });

  it("turns a body cut off mid-way into a NetworkError", async () => {
    sim.failNext(1, { kind: "cut-off" });
    const error = await rejection(client.listChildren(), NetworkError);
    expect(error.retryable).toBe(true);
    expect(sim.requests.at(-1)).toMatchObject({ fault: "cut-off", status: 200 });
  });

  it("gives up on an answer slower than the client's deadline, never to be retried in the job", async () => {
    const impatient = newClient(sim, logger, { timeoutMs: 200 });
    sim.failNext(1, { kind: "slow", delayMs: 60_000 });
    const error = await rejection(impatient.listChildren(), DeadlineExceededError);
    expect(error).toMatchObject({ retryable: false, deadlineMs: 200 });
    await impatient.close();
  });

  it("turns a status the spec does not name into an UnexpectedStatusError with the service's words", async () => {
    sim.failNext(1, { kind: "status", status: 418, body: { error: "I'm a teapot" } });
    const error = await rejection(client.listChildren(), UnexpectedStatusError);
    expect(error).toMatchObject({
      status: 418,
      message: "unexpected status 418: I'm a teapot (GET /children)",
    });
  });

  it("does not follow a redirect, so the token goes nowhere else", async () => {
    sim.failNext(1, { kind: "status", status: 302, headers: { location: `${sim.legacyUrl}/children` } });
    const error = await rejection(client.listChildren(), UnexpectedStatusError);
    expect(error.status).toBe(302);
    expect(sim.requests.map((r) => `${r.base} ${r.path} ${r.status}`)).toEqual(["current /children 302"]);
  });
});

/** The promise, and whether it has settled yet (for fake-timer steps). */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  // Observed here: the test awaits it later, after advancing the timers.
  tracked.catch(() => undefined);
  return { promise: tracked, settled: () => settled };
}

describe("the deadline: headers and body together, on the (fake) timers", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });

  it("fails a body that trickles for ever at the deadline, not a moment later", async () => {
    sim.failNext(1, { kind: "trickle", everyMs: 5_000 });
    const read = watched(client.getEvents(sim.children.ordinary.id));
    await untilIo(() => sim.requests.length === 1);
    // A byte every 5 s: undici's own timeouts (the gap between two chunks) would never be met.
    for (let elapsed = 0; elapsed < REQUEST_DEADLINE_MS - 1_000; elapsed += 1_000) {
      await vi.advanceTimersByTimeAsync(1_000);
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(read.settled()).toBe(false);
    expect(sim.requests[0]?.bodyBytes).toBeGreaterThanOrEqual(3);
    await vi.advanceTimersByTimeAsync(1);
    const error = await rejection(read.promise, DeadlineExceededError);
    expect(error).toMatchObject({ retryable: false, deadlineMs: REQUEST_DEADLINE_MS });
    expect(error.message).toContain("not complete within 20 s");
  });

  it("fails headers that never come at the same deadline", async () => {
    sim.failNext(1, { kind: "slow", delayMs: 10 * 60_000 });
    const read = watched(client.listChildren());
    await untilIo(() => sim.requests.length === 1);
    await vi.advanceTimersByTimeAsync(REQUEST_DEADLINE_MS - 1);
    expect(read.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await rejection(read.promise, DeadlineExceededError);
  });

  it("reads a slow body that ends within the deadline", async () => {
    // Four spaces, one every 3 s, then the answer: complete after 15 s.
    sim.failNext(1, { kind: "trickle", everyMs: 3_000, bytes: 4 });
    const read = watched(client.listChildren());
    await untilIo(() => sim.requests.length === 1);
    for (let i = 0; i < 5; i++) {
      await vi.advanceTimersByTimeAsync(3_000);
      await untilIo(() => (sim.requests[0]?.bodyBytes ?? 0) >= Math.min(i + 1, 4));
    }
    expect(await read.promise).toHaveLength(3);
  });

  it("gives the caller's abort, not the deadline's error, when the caller stops first", async () => {
    sim.failNext(1, { kind: "trickle", everyMs: 5_000 });
    const stop = new AbortController();
    const read = watched(client.getEvents(sim.children.ordinary.id, undefined, stop.signal));
    await untilIo(() => sim.requests.length === 1);
    await vi.advanceTimersByTimeAsync(5_000);
    const reason = new Error("engine stopped");
    stop.abort(reason);
    await expect(read.promise).rejects.toBe(reason);
    // The deadline's timer went with the request.
    await vi.advanceTimersByTimeAsync(REQUEST_DEADLINE_MS);
  });
});

describe("the body size cap", () => {
  it("refuses an answer whose content-length is above the cap, before reading its body", async () => {
    sim.failNext(1, { kind: "huge", bytes: 250 * 1000 * 1000, contentLength: true });
    const error = await rejection(client.getEvents(sim.children.ordinary.id), BodyTooLargeError);
    expect(error).toMatchObject({
      retryable: false,
      limitBytes: MAX_BODY_BYTES,
      announcedBytes: 250 * 1000 * 1000,
      readBytes: 0,
    });
    expect(error.message).toContain("larger than 2 MiB (content-length 250000000)");
    // The connection went: the rest never reached the client. What the simulator wrote before the
    // drop is what the loopback buffers took at most (tens of MiB), far from the body's 250 MB.
    expect(sim.requests.at(-1)?.bodyBytes ?? 0).toBeLessThan(64 * 1024 * 1024);
    expect(await client.listChildren()).toHaveLength(3);
  });

  it("stops reading a streamed answer once it passes the cap", async () => {
    sim.failNext(1, { kind: "huge", bytes: 250 * 1000 * 1000, contentLength: false });
    const error = await rejection(client.getEvents(sim.children.ordinary.id), BodyTooLargeError);
    expect(error.announcedBytes).toBeUndefined();
    // Read up to the cap and the chunk that passed it, no further.
    expect(error.readBytes).toBeGreaterThan(MAX_BODY_BYTES);
    expect(error.readBytes).toBeLessThanOrEqual(MAX_BODY_BYTES + 64 * 1024);
    expect(sim.requests.at(-1)?.bodyBytes ?? 0).toBeLessThan(64 * 1024 * 1024);
    expect(await client.listChildren()).toHaveLength(3);
  });

  it("reads an answer just below the cap", async () => {
    const padding = "x".repeat(MAX_BODY_BYTES - 100);
    sim.failNext(1, { kind: "body", body: { events: [], cursor: null, padding } });
    expect(await client.getEvents(sim.children.ordinary.id)).toMatchObject({ events: [], cursor: null });
    sim.failNext(1, {
      kind: "body",
      body: { events: [], cursor: null, padding: `${padding}${"x".repeat(200)}` },
    });
    await rejection(client.getEvents(sim.children.ordinary.id), BodyTooLargeError);
  });
});

describe("an unreadable child in the list", () => {
  const unreadable = { id: "5b1e0000-0000-4000-8000-00000000abcd", firstName: null };

  it("skips it alone, warns once while it stays unreadable, and returns the others", async () => {
    const { ordinary, custody, unsynced } = sim.children;
    const warnings = () => collectedLines.filter((l) => l.includes("unreadable child")).length;
    const before = warnings();
    const listing = [ordinary, unreadable, custody, unsynced];
    sim.failNext(3, { kind: "body", body: listing }, "/children");
    for (let i = 0; i < 3; i++) expect(await client.listChildren()).toEqual([ordinary, custody, unsynced]);
    expect(warnings() - before).toBe(1);
    const line = collectedLines.filter((l) => l.includes("unreadable child")).at(-1) ?? "";
    expect(JSON.parse(line)).toMatchObject({
      level: 40,
      index: 1,
      id: unreadable.id,
      issues: ["firstName: Invalid input: expected string, received null"],
    });
    // Mended, then broken again: news again.
    expect(await client.listChildren()).toHaveLength(3);
    sim.failNext(1, { kind: "body", body: listing }, "/children");
    await client.listChildren();
    expect(warnings() - before).toBe(2);
  });

  it("still refuses a list that is not a list", async () => {
    sim.failNext(1, { kind: "body", body: { children: [] } }, "/children");
    await rejection(client.listChildren(), SchemaMismatchError);
  });
});

describe("Retry-After beyond the longest pause", () => {
  it.each([
    ["seconds", "99999999"],
    ["an HTTP date", "Fri, 01 Jan 2100 00:00:00 GMT"],
    ["a number too long to hold", "9".repeat(400)],
  ])("holds %s to the longest pause, and says what the API asked", async (_what, retryAfter) => {
    const said = () => collectedLines.filter((l) => l.includes("pause longer than the bridge ever takes"));
    const before = said().length;
    sim.failNext(1, { kind: "status", status: 429, headers: { "retry-after": retryAfter } });
    const error = await rejection(client.listChildren(), RateLimitedError);
    expect(error.retryAfterMs).toBe(MAX_PAUSE_MS);
    expect(said().length - before).toBe(1);
    expect(JSON.parse(said().at(-1) ?? "")).toMatchObject({
      level: 40,
      retryAfter: retryAfter.slice(0, 80),
      pauseMs: MAX_PAUSE_MS,
    });
  });

  it("keeps a Retry-After within it as the API gave it, without a word", async () => {
    const before = collectedLines.length;
    sim.failNext(1, { kind: "status", status: 429, headers: { "retry-after": "600" } });
    expect((await rejection(client.listChildren(), RateLimitedError)).retryAfterMs).toBe(MAX_PAUSE_MS);
    expect(collectedLines.slice(before)).toEqual([]);
  });
});

describe("legacy base URL", () => {
  it("falls back to the legacy base URL when the main one does not answer", async () => {
    const closedPort = await portOfAClosedServer();
    const fallback = newClient(sim, logger, {
      baseUrl: `http://127.0.0.1:${closedPort}/api/v1`,
      legacyBaseUrl: sim.legacyUrl,
    });
    expect(await fallback.listChildren()).toHaveLength(3);
    expect(await fallback.getToday(sim.children.ordinary.id)).toMatchObject({ isMyDay: true });
    expect(sim.requests.map((r) => r.base)).toEqual(["legacy", "legacy"]);
    expect(collectedLines.filter((l) => l.includes("other base address"))).toHaveLength(1);
    await fallback.close();
  });

  it("reports the closed port as a NetworkError when there is no legacy URL", async () => {
    const closedPort = await portOfAClosedServer();
    const alone = newClient(sim, logger, { baseUrl: `http://127.0.0.1:${closedPort}/api/v1` });
    const error = await rejection(alone.listChildren(), NetworkError);
    expect(error.code).toBe("ECONNREFUSED");
    await alone.close();
  });
});

describe("the client's options", () => {
  it("refuses a token or a base URL that cannot be right before any request, naming what is wrong", () => {
    const made = (options: Partial<ConstructorParameters<typeof RewardFactsClient>[0]>) => {
      try {
        newClient(sim, logger, options);
      } catch (error) {
        collectedErrors.push(error);
        return error;
      }
      throw new Error("the client was made");
    };
    const cases: Array<[Partial<ConstructorParameters<typeof RewardFactsClient>[0]>, string]> = [
      [{ token: "rf_api_with a space" }, "API token must not contain spaces"],
      [
        { baseUrl: "http://api.example.com/v1" },
        "API base URL must use https (http only on a loopback address)",
      ],
      [{ legacyBaseUrl: "https://user:pw@api.example.com/v1" }, "API base URL must not contain credentials"],
    ];
    for (const [options, message] of cases) {
      const error = made(options);
      expect(error).toBeInstanceOf(ClientOptionsError);
      expect(error).toMatchObject({ name: "ClientOptionsError", message });
    }
    expect(sim.requests).toEqual([]);
  });
});

describe("the token", () => {
  it("shows in no error and no log line of this file", () => {
    // At least one failure of every kind above was collected, so an empty check cannot pass.
    expect(collectedErrors.length).toBeGreaterThanOrEqual(25);
    expect(collectedErrors.every((e) => e instanceof Error)).toBe(true);
    const texts = [...collectedErrors.map(errorText), ...collectedLines];
    for (const token of tokensSeen) {
      expect(texts.filter((text) => text.includes(token))).toEqual([]);
    }
  });
});

describe("connections", () => {
  it("keeps the client of its connection once the API has closed the idle connection", async () => {
    const port = Number(new URL(sim.url).port);
    // undici's connector for each connection to the simulator: one per undici client object.
    const connections: { connector: unknown; socket: Socket }[] = [];
    const onConnected = (message: unknown) => {
      const seen = message as { connectParams: { port: string }; connector: unknown; socket: Socket };
      if (Number(seen.connectParams.port) === port) connections.push(seen);
    };
    diagnostics.subscribe("undici:client:connected", onConnected);
    try {
      expect(await client.listChildren()).toHaveLength(3);
      const first = connections[0]?.socket;
      if (!first) throw new Error("no connection seen");
      const closed = new Promise((resolve) => first.once("close", resolve));
      sim.closeIdleConnections();
      await closed;
      expect(await client.listChildren()).toHaveLength(3);
      // A second connection, by the same client object: an Agent drops an origin's pool with its
      // last connection and builds another (src/api/client.ts says why that matters).
      expect(connections).toHaveLength(2);
      expect(connections[1]?.connector).toBe(connections[0]?.connector);
    } finally {
      diagnostics.unsubscribe("undici:client:connected", onConnected);
    }
  });
});
