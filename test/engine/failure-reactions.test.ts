import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RewardFactsClient } from "../../src/api/client.js";
import {
  ChildNotCoveredError,
  RateLimitedError,
  type RequestInfo,
  SchemaMismatchError,
  ServerError,
  TokenRejectedError,
} from "../../src/api/errors.js";
import { FailureReactions } from "../../src/engine/failure-reactions.js";
import { FollowedChildren } from "../../src/engine/followed-children.js";
import { Pacing } from "../../src/engine/pacing.js";
import { RateBudget } from "../../src/engine/rate-budget.js";
import type { Job } from "../../src/engine/scheduler.js";
import { MaybeDeliveredError } from "../../src/engine/sink.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import { StoreWriteError } from "../../src/store/errors.js";
import { LogCollector } from "../support/engine-rig.js";
import { RecordingSink } from "../support/recording-sink.js";

const MINUTE = 60_000;
const TOKEN_CHECK_MS = 10 * MINUTE;
const UNAVAILABLE_AFTER_MS = 3 * MINUTE;
const request: RequestInfo = { method: "GET", path: "/children", baseUrl: "http://127.0.0.1" };
const discovery: Job = { kind: "discovery", due: 0 };

let sim: ApiSimulator;
let logs: LogCollector;
let sink: RecordingSink;
let budget: RateBudget;
let children: FollowedChildren;
let reactions: FailureReactions;

beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: false });
});
afterAll(async () => {
  await sim.stop();
});

beforeEach(async () => {
  logs = new LogCollector();
  const logger = logs.logger([sim.tokens.household]);
  sink = new RecordingSink();
  budget = new RateBudget();
  const pacing = new Pacing({
    budget,
    logger,
    eventsIntervalMs: 30_000,
    todayIntervalMs: MINUTE,
    discoveryIntervalMs: 15 * MINUTE,
    jitter: 0,
    random: () => 0.5,
  });
  const reader = new RewardFactsClient({
    token: sim.tokens.household,
    baseUrl: sim.url,
    logger,
    timeoutMs: 10_000,
  });
  children = new FollowedChildren({
    sink,
    logger,
    reader,
    childrenFilter: [],
    retry: (attempt) => attempt(),
    pacing,
    jitter: 0,
    random: () => 0.5,
  });
  await children.discover(AbortSignal.timeout(10_000));
  reactions = new FailureReactions({
    logger,
    budget,
    children,
    tokenCheckIntervalMs: TOKEN_CHECK_MS,
    unavailableAfterMs: () => UNAVAILABLE_AFTER_MS,
  });
});

describe("what the engine does with a failed job", () => {
  it("logs a spell of a failing data directory when it starts and when it ends, not at every failure", async () => {
    const now = Date.now();
    await reactions.failed(new StoreWriteError("cannot write", "/data/x", "EROFS"), discovery, now);
    await reactions.failed(new StoreWriteError("cannot write", "/data/x", "EROFS"), discovery, now + MINUTE);
    expect(logs.matching(/cannot write the data directory/)).toHaveLength(1);
    expect(reactions.lastError).toContain("cannot write");
    reactions.succeeded(discovery, now + 2 * MINUTE);
    reactions.succeeded(discovery, now + 3 * MINUTE);
    expect(logs.matching(/can be written again/)).toHaveLength(1);
    expect(reactions.lastError).toBeNull();
  });

  it("says the API is unreachable only once it has failed for the limit", async () => {
    const start = Date.now();
    await reactions.failed(new ServerError("boom", request, 503), discovery, start);
    await reactions.failed(new ServerError("boom", request, 503), discovery, start + MINUTE);
    expect(logs.matching(/the API cannot be read/)).toHaveLength(1);
    expect(reactions.apiUnreachable(start + UNAVAILABLE_AFTER_MS - 1)).toBe(false);
    expect(reactions.apiUnreachable(start + UNAVAILABLE_AFTER_MS)).toBe(true);
    reactions.succeeded(discovery, start + 2 * MINUTE);
    expect(reactions.apiUnreachable(start + UNAVAILABLE_AFTER_MS)).toBe(false);
    expect(logs.matching(/the API answers again/)).toHaveLength(1);
  });

  it("says the API is unreachable only while no read goes through at all, whatever one source does", async () => {
    const start = Date.now();
    const [track] = children.followed();
    if (!track) throw new Error("no child");
    const events: Job = { kind: "events", due: start, track };
    const today: Job = { kind: "today", due: start, track };
    for (let minute = 0; minute < 10; minute++) {
      await reactions.failed(new ServerError("boom", request, 503), events, start + minute * MINUTE);
      reactions.succeeded(today, start + minute * MINUTE + 1);
    }
    expect(reactions.apiUnreachable(start + 10 * MINUTE)).toBe(false);
    // Its own spell, logged once, with the child and the read.
    expect(logs.matching(/the API cannot be read/)).toEqual([
      expect.objectContaining({ read: "events", child: track.child.firstName }),
    ]);
    expect(logs.matching(/answers again/)).toEqual([]);
  });

  it("logs a lasting unreadable list of children once, and again only after it was read", async () => {
    const unreadable = () => new SchemaMismatchError(request, ["0.firstName: Required"]);
    const now = Date.now();
    for (let i = 0; i < 5; i++) await reactions.failed(unreadable(), discovery, now + i * MINUTE);
    expect(logs.matching(/unreadable API answer/)).toHaveLength(1);
    reactions.succeeded(discovery, now + 5 * MINUTE);
    await reactions.failed(unreadable(), discovery, now + 10 * MINUTE);
    expect(logs.matching(/unreadable API answer/)).toHaveLength(2);
  });

  it("on a 403, suspends the child and tries its refused read again a minute later", async () => {
    const [track] = children.followed();
    if (!track) throw new Error("no child");
    const now = Date.now();
    const today: Job = { kind: "today", due: now, track };
    await reactions.failed(new ChildNotCoveredError("not covered", request, 403), today, now);
    expect(track.suspended).toEqual({ kind: "refused", read: "today", due: now + MINUTE, refusals: 1 });
    expect(children.followed()).not.toContain(track);
    // A child's condition, not the bridge's error.
    expect(reactions.lastError).toBeNull();
  });

  it("on a rejected token, marks every child unavailable and checks again an interval later", async () => {
    const followed = children.followed().length;
    expect(followed).toBeGreaterThan(0);
    const now = Date.now();
    await reactions.failed(new TokenRejectedError("revoked", request, 401), discovery, now);
    await reactions.failed(new TokenRejectedError("revoked", request, 401), discovery, now + 1_000);
    expect(reactions.tokenInvalid).toBe(true);
    expect(reactions.tokenCheckDue).toBe(now + 1_000 + TOKEN_CHECK_MS);
    expect(logs.matching(/rejected the token/)).toHaveLength(1);
    expect(new Set(sink.unavailable.map((u) => u.childId)).size).toBe(followed);
    expect(sink.unavailable.every((u) => u.reason === "token_rejected")).toBe(true);
    reactions.tokenWorks();
    expect(reactions.tokenInvalid).toBe(false);
    expect(logs.matching(/token works again/)).toHaveLength(1);
    expect(logs.raw.join("\n")).not.toContain(sim.tokens.household);
  });

  it("sends a fact left without an answer again as soon as the sink is back, quietly: no error of the bridge's", async () => {
    const [track] = children.followed();
    if (!track) throw new Error("no child");
    const now = Date.now();
    track.eventsDue = now + 10 * MINUTE;
    const logged = logs.lines.length;
    const events: Job = { kind: "events", due: now, track };
    await reactions.failed(new MaybeDeliveredError("the link dropped before the answer"), events, now);
    expect(track.eventsDue).toBe(now);
    expect(track.sinkRefusedIn.size).toBe(0);
    expect(reactions.lastError).toBeNull();
    expect(logs.lines.slice(logged)).toEqual([]);
  });

  it("logs a failure it has no reaction for (a bug) as an error with its stack, naming the job", async () => {
    const [track] = children.followed();
    if (!track) throw new Error("no child");
    const now = Date.now();
    await reactions.failed(
      new TypeError("cannot read properties of undefined"),
      { kind: "today", due: now, track },
      now,
    );
    expect(logs.matching(/unexpected failure in the today job/)).toEqual([
      expect.objectContaining({
        level: 50,
        child: track.child.firstName,
        err: expect.objectContaining({ stack: expect.stringContaining("TypeError") }),
      }),
    ]);
    expect(reactions.lastError).toBe("cannot read properties of undefined");
  });

  it("pauses every request of the token on a 429", async () => {
    const now = Date.now();
    expect(budget.isPaused(now)).toBe(false);
    await reactions.failed(new RateLimitedError(request, 30_000), discovery, now);
    expect(budget.isPaused(now + 1_000)).toBe(true);
    expect(reactions.lastError).not.toBeNull();
  });
});
