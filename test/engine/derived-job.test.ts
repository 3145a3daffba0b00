import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { TodayPayload } from "../../src/api/schemas.js";
import { type DerivedJobContext, deriveAndDeliver, derivedJobParts } from "../../src/engine/derived-job.js";
import type { ChildRef } from "../../src/engine/sink.js";
import { DeliveredLog, derivedStoreOn, openStore, type Store } from "../../src/store/index.js";
import { LogCollector } from "../support/engine-rig.js";
import { sampleToday } from "../support/facts.js";
import { RecordingSink } from "../support/recording-sink.js";

// The derived facts' job over the real store and delivered-events log: what it keeps of a child's
// readings cannot always be trusted (a file from another version, a damaged one), and a reading
// may go backwards (a behavior undone in the app). Neither may make a fact; both are told once.

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const T0 = Date.parse("2026-11-21T15:00:00Z");
const MINUTE = 60_000;

/** The day before Homework was declared: the baseline whose next reading declares it. */
const beforeHomework: TodayPayload = {
  ...sampleToday,
  behaviors: sampleToday.behaviors.map((b) => (b.id === "b2" ? { ...b, status: "todo" as const } : b)),
};

const opened: Array<{ store: Store; delivered: DeliveredLog }> = [];
afterEach(async () => {
  for (const { store, delivered } of opened.splice(0)) {
    await store.close();
    await delivered.close();
  }
});

/** A job's context on a data directory of its own, as the engine builds it. */
async function derivedJob() {
  const dataDir = await mkdtemp(join(tmpdir(), "rf-derived-job-"));
  const logs = new LogCollector();
  const logger = logs.logger();
  const store = await openStore({ dataDir, logger });
  const delivered = DeliveredLog.open({ dataDir, logger });
  opened.push({ store, delivered });
  const sink = new RecordingSink();
  const ctx: DerivedJobContext = {
    sink,
    delivered,
    logger,
    replayedAfterMs: 60 * MINUTE,
    store: derivedStoreOn(store, logger),
    minutesLowThresholds: [],
    ...derivedJobParts(),
  };
  const read = (today: TodayPayload, at: number) =>
    deriveAndDeliver(ctx, lea, today, at, AbortSignal.timeout(10_000));
  return { ctx, store, sink, logs, read };
}

describe("deriveAndDeliver", () => {
  it("does not trust a kept reading it cannot read: a warning, then facts from the next two readings", async () => {
    const job = await derivedJob();
    // Not a record this version writes: a pending fact without its id, a state without a reading.
    await job.store.set(`derived:${lea.id}`, { state: { sessions: "many" }, pending: [{ derived: true }] });

    await job.read(beforeHomework, T0);
    // Said as the store reads it back (store/derived-store.ts), naming the child's key.
    expect(job.logs.matching(/damaged and is set aside/)).toEqual([
      expect.objectContaining({ key: `derived:${lea.id}`, level: 40 }),
    ]);
    expect(job.sink.derivedOf(lea.id)).toEqual([]);

    await job.read(sampleToday, T0 + MINUTE);
    expect(job.sink.derivedOf(lea.id)).toEqual([
      expect.objectContaining({ type: "behavior_declared", label: "Homework" }),
    ]);
    expect(await job.store.get(`derived:${lea.id}`)).toMatchObject({ pending: [], state: { sessions: 0 } });
    expect(job.logs.matching(/damaged and is set aside/)).toHaveLength(1);
  });

  it("makes no fact of a reading that went backwards, and says so once per child, day and kind", async () => {
    const job = await derivedJob();
    await job.read(sampleToday, T0);
    // Homework back to todo and two points fewer: undone in the app.
    const undone: TodayPayload = { ...beforeHomework, points: sampleToday.points - 2 };
    await job.read(undone, T0 + MINUTE);
    // Up again, and down again: the same kinds on the same day, not told again.
    await job.read(sampleToday, T0 + 2 * MINUTE);
    await job.read(undone, T0 + 3 * MINUTE);

    const told = job.logs.matching(/went backwards/);
    expect(told.map((line) => line.change).sort()).toEqual(["behavior_undone", "points_down"]);
    expect(told.every((line) => line.child === "Léa")).toBe(true);
    // Homework declared again after it was undone: a fact once, as its id is the day's.
    expect(job.sink.derivedOf(lea.id).map((fact) => fact.type)).toEqual(["behavior_declared"]);
  });
});
