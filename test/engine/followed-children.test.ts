import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RewardFactsClient } from "../../src/api/client.js";
import { FollowedChildren } from "../../src/engine/followed-children.js";
import { Pacing } from "../../src/engine/pacing.js";
import { RateBudget } from "../../src/engine/rate-budget.js";
import { nextJob } from "../../src/engine/scheduler.js";
import type { Track } from "../../src/engine/track.js";
import { silentLogger } from "../../src/log/logger.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import { LogCollector } from "../support/engine-rig.js";
import { RecordingSink } from "../support/recording-sink.js";

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

let sim: ApiSimulator;
let client: RewardFactsClient;
let logs: LogCollector;
let sink: RecordingSink;
let children: FollowedChildren;

beforeAll(async () => {
  sim = await ApiSimulator.start({ activity: false });
  client = new RewardFactsClient({
    token: sim.tokens.household,
    baseUrl: sim.url,
    logger: silentLogger(),
    timeoutMs: 10_000,
  });
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

beforeEach(async () => {
  // Date only: the requests to the simulator run on real timers.
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  logs = new LogCollector();
  const logger = logs.logger();
  sink = new RecordingSink();
  const budget = new RateBudget();
  const pacing = new Pacing({
    budget,
    logger,
    eventsIntervalMs: 30_000,
    todayIntervalMs: MINUTE,
    discoveryIntervalMs: 5 * MINUTE,
    jitter: 0,
    random: () => 0.5,
  });
  children = new FollowedChildren({
    sink,
    logger,
    reader: client,
    childrenFilter: [],
    retry: (attempt) => attempt(),
    pacing,
    jitter: 0,
    random: () => 0.5,
  });
  await children.discover(AbortSignal.timeout(10_000));
});
afterEach(() => {
  vi.useRealTimers();
  for (const child of Object.values(sim.children)) sim.moveChildIn(child.id);
});

function trackOf(id: string): Track {
  const track = [...children.all()].find((t) => t.child.id === id);
  if (!track) throw new Error(`no track for ${id}`);
  return track;
}

const ids = (list: readonly { id: string }[]) => list.map((c) => c.id);
const schedule = () => ({
  tokenInvalid: false,
  tokenCheckDue: 0,
  discoveryDue: Infinity,
  statusDue: Infinity,
  tracks: [trackOf(sim.children.ordinary.id)],
  intervals: { eventsMs: 30_000, todayMs: MINUTE },
});

describe("a child the token no longer covers", () => {
  it("refused (403) but still listed: tried again after 1, 2, 4, then every 5 minutes, logged and marked once", async () => {
    const lea = trackOf(sim.children.ordinary.id);
    const waits: number[] = [];
    let now = NOW;
    for (let i = 0; i < 6; i++) {
      await children.refused(lea, "today", now);
      const job = nextJob(schedule(), now);
      // Only the refused read is planned, at its next try.
      expect(job).toMatchObject({ kind: "today", track: lea });
      waits.push(job.due - now);
      now = job.due;
      // The list, read meanwhile, still shows the child: that brings nothing new.
      await children.discover(AbortSignal.timeout(10_000));
    }
    expect(waits).toEqual([1, 2, 4, 5, 5, 5].map((m) => m * MINUTE));
    expect(logs.matching(/no longer covers this child/)).toHaveLength(1);
    expect(logs.matching(/no longer covers this child/)[0]).toMatchObject({ child: "Léa", read: "today" });
    expect(logs.matching(/covered by the token again/)).toHaveLength(0);
    expect(sink.unavailable.map((u) => [u.childId, u.reason])).toEqual([[lea.child.id, "not_covered"]]);
    expect(ids(children.followed().map((t) => t.child))).not.toContain(lea.child.id);
    // Still the household's as far as the list says: her entities stay, unavailable.
    expect(ids(sink.children)).toContain(lea.child.id);

    // Its read goes through: followed again, at once, said once.
    await children.readable(lea, now);
    await children.readable(lea, now + 1);
    expect(lea.suspended).toBeNull();
    expect([lea.eventsDue, lea.todayDue]).toEqual([now, now]);
    expect(logs.matching(/covered by the token again/)).toHaveLength(1);
    expect(ids(sink.children)).toContain(lea.child.id);
  });

  it("gone from the list: not tried again until the list shows it again", async () => {
    const lea = trackOf(sim.children.ordinary.id);
    await children.refused(lea, "events", NOW);
    sim.moveChildOut(lea.child.id);
    await children.discover(AbortSignal.timeout(10_000));
    expect(lea.suspended).toEqual({ kind: "unlisted" });
    expect(ids(sink.children)).not.toContain(lea.child.id);
    expect(nextJob(schedule(), NOW + 60 * MINUTE)).not.toHaveProperty("track");
    // Already suspended by the 403: one line for the whole spell.
    expect(logs.matching(/no longer covers this child/)).toHaveLength(1);

    sim.moveChildIn(lea.child.id);
    await children.discover(AbortSignal.timeout(10_000));
    expect(lea.suspended).toBeNull();
    expect(logs.matching(/covered by the token again/)).toHaveLength(1);
    expect(ids(sink.children)).toContain(lea.child.id);
  });

  it("gone from the list while followed: one line, unavailable once", async () => {
    const noah = trackOf(sim.children.custody.id);
    sim.moveChildOut(noah.child.id);
    await children.discover(AbortSignal.timeout(10_000));
    await children.discover(AbortSignal.timeout(10_000));
    expect(logs.matching(/no longer covers this child/).map((line) => line.msg)).toEqual([
      "the token no longer covers this child; not polling it until the token lists it again",
    ]);
    expect(sink.unavailable.map((u) => [u.childId, u.reason])).toEqual([[noah.child.id, "not_covered"]]);
    expect(ids(sink.children)).not.toContain(noah.child.id);
  });
});
