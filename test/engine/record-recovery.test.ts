import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { STORE_FILE_NAME } from "../../src/store/store-file.js";
import { EngineRig } from "../support/engine-rig.js";

// A child whose cursor the data directory no longer holds (deleted, moved aside as unreadable, a
// cursor in the future) is judged against the destination's own record of its deliveries. Here the
// destination is the recording sink, whose record is the last fact it took (as Home Assistant's
// delivery record is); test/fault/lost-data-dir.test.ts runs the same against a real Home Assistant.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The rig following the ordinary child only, with `facts` facts of it already today. */
async function rigWithFacts(start: string, facts: Array<string>): Promise<EngineRig> {
  const started = await EngineRig.start({
    start,
    prepare: (sim) => {
      const { ordinary } = sim.children;
      for (const at of facts) sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "bravo" }, { at });
      return { childrenFilter: [ordinary.id] };
    },
  });
  rig = started;
  const id = started.sim.children.ordinary.id;
  await started.time.until(() => started.sink.eventIdsOf(id).length === facts.length, 5 * MINUTE);
  return started;
}

/**
 * 22:15 in Paris, the ordinary child with `before` facts already delivered: two facts come in the
 * evening after the bridge stops at 22:35, and it comes back at 00:50 the next day with what
 * `damage` did to its data directory. The rig, and the evening's two facts.
 */
async function backAfterMidnight(before: string[], damage: (dataDir: string) => Promise<void>) {
  const r = await rigWithFacts("2026-11-21T21:15:00Z", before);
  const { ordinary } = r.sim.children;
  await r.time.advance(20 * MINUTE);
  const evening = r.sim.addEvent(
    ordinary.id,
    { type: "cheer_sent", cheer: "super" },
    { at: "2026-11-21T22:40:00Z" },
  );
  const night = r.sim.addEvent(
    ordinary.id,
    { type: "cheer_sent", cheer: "seen" },
    { at: "2026-11-21T23:20:00Z" },
  );
  await r.restartOnDamagedDataDir(async (dataDir) => {
    await r.time.advance(2 * HOUR + 15 * MINUTE);
    await damage(dataDir);
  });
  return { r, ordinary, evening, night };
}

/** Each fact taken more than once, with how it was marked the times after the first. */
function repeats(r: EngineRig, childId: string) {
  const seen = new Set<string>();
  const again: Array<{ id: string; uncertain: boolean; inDoubt: boolean }> = [];
  for (const { event, delivery, childId: of } of r.sink.events) {
    if (of !== childId) continue;
    if (seen.has(event.id))
      again.push({ id: event.id, uncertain: delivery.uncertain, inDoubt: delivery.inDoubt });
    seen.add(event.id);
  }
  return again;
}

describe("a child without a cursor is judged against the destination's record", () => {
  it("a deleted data directory: the facts the record covers are not sent again, later ones go as news", async () => {
    const r = await rigWithFacts("2026-11-21T15:00:00Z", [
      "2026-11-21T09:00:00Z",
      "2026-11-21T10:00:00Z",
      "2026-11-21T11:00:00Z",
    ]);
    const { ordinary } = r.sim.children;
    await r.restartOnDamagedDataDir();
    r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "super" });
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 4, 5 * MINUTE);
    await r.time.advance(3 * MINUTE);

    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
    expect(r.sink.events.at(-1)?.delivery.uncertain).toBe(false);
    expect(r.logs.matching(/holds no delivery state/)).toHaveLength(1);
    expect(r.logs.matching(/facts up to it are not sent again/)).toHaveLength(1);
  });

  it("a data directory behind the record (a copy, while another run went on): said once, nothing sent twice", async () => {
    const r = await rigWithFacts("2026-11-21T15:00:00Z", ["2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z"]);
    const { ordinary } = r.sim.children;
    // Copied now (moved to another host, say), while the original goes on delivering.
    const copy = await mkdtemp(join(tmpdir(), "rf-copy-"));
    await cp(r.dataDir, copy, { recursive: true });
    r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "super" });
    r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "bravo" });
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 4, 5 * MINUTE);
    // The copy takes over from its own, older, cursor.
    await r.restartOnDamagedDataDir(async (dataDir) => {
      await rm(dataDir, { recursive: true, force: true });
      await cp(copy, dataDir, { recursive: true });
    });
    r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "seen" });
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length >= 5, 5 * MINUTE);
    await r.time.advance(3 * MINUTE);

    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
    expect(r.logs.matching(/never sent/)).toHaveLength(1);
    expect(r.sink.events.at(-1)?.delivery.uncertain).toBe(false);
  });

  it("a cursor in the future is said, dropped, and the day read again without repeating a fact", async () => {
    const r = await rigWithFacts("2026-11-21T15:00:00Z", ["2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z"]);
    const { ordinary } = r.sim.children;
    await r.cursors.set(ordinary.id, "2100-01-01T00:00:00.000Z,00000000-0000-0000-0000-000000000000");
    await r.restart();
    r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "seen" });
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 3, 5 * MINUTE);
    await r.time.advance(3 * MINUTE);

    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
    const warned = r.logs.matching(/cursor lies in the future/);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.cursorAt).toBe("2100-01-01T00:00:00.000Z");
  });

  it.each([
    ["its store", false],
    ["its store and its delivered log", true],
  ])(
    "%s unreadable after a downtime across the household's midnight: the evening's facts still come",
    async (_what, ledgerToo) => {
      // A fact of 22:10 delivered; the store, and the delivered log too, unreadable after midnight.
      const { r, ordinary, evening, night } = await backAfterMidnight(
        ["2026-11-21T21:10:00Z"],
        async (dataDir) => {
          await writeFile(join(dataDir, STORE_FILE_NAME), "{ not a store");
          if (ledgerToo) await writeFile(join(dataDir, "delivered-events.log"), "\u0000\u0000garbage\n");
        },
      );
      await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 3, 5 * MINUTE);
      await r.time.advance(3 * MINUTE);

      expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
      expect(r.sink.eventIdsOf(ordinary.id).slice(1)).toEqual([evening.id, night.id]);
      expect(repeats(r, ordinary.id)).toEqual([]);
    },
  );

  it("an empty record made the evening before, and the data directory lost across midnight: the evening's facts still come", async () => {
    // A child with no fact yet (her record made, naming nothing); the store unreadable after midnight.
    const { r, ordinary, evening, night } = await backAfterMidnight([], (dataDir) =>
      writeFile(join(dataDir, STORE_FILE_NAME), "{ not a store"),
    );
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 2, 5 * MINUTE);
    await r.time.advance(3 * MINUTE);
    expect(r.sink.eventIdsOf(ordinary.id)).toEqual([evening.id, night.id]);
    expect(repeats(r, ordinary.id)).toEqual([]);
  });

  it("a record naming the evening's fact, taken after midnight, and nothing since: nothing again, the next fact as news", async () => {
    // 23:45 in Paris, Home Assistant away: the fact of 23:50 is taken at 00:10, the next day.
    const r = await rigWithFacts("2026-11-21T22:45:00Z", []);
    const { ordinary } = r.sim.children;
    r.sink.setReady(false);
    await r.time.advance(5 * MINUTE);
    const evening = r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "bravo" });
    await r.time.advance(20 * MINUTE);
    r.sink.setReady(true);
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).includes(evening.id), 5 * MINUTE);
    // The record's day (today) holds no fact yet: its fact is of the day before.
    await r.restartOnDamagedDataDir();
    await r.time.advance(3 * MINUTE);
    const morning = r.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "seen" });
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).includes(morning.id), 5 * MINUTE);
    await r.time.advance(3 * MINUTE);

    expect(r.sink.eventIdsOf(ordinary.id)).toEqual([evening.id, morning.id]);
    expect(r.sink.events.at(-1)?.delivery.uncertain).toBe(false);
    expect(r.logs.matching(/holds no delivery state/)).toHaveLength(1);
    expect(r.logs.matching(/facts up to it are not sent again|was not found in the journal/)).toEqual([]);
  });

  it("a destination that cannot read its record: the day's facts go again, every one marked", async () => {
    const r = await rigWithFacts("2026-11-21T15:00:00Z", ["2026-11-21T09:00:00Z", "2026-11-21T10:00:00Z"]);
    const { ordinary } = r.sim.children;
    r.sink.recordMode = "unknown";
    await r.restartOnDamagedDataDir();
    const fresh = r.sim.addEvent(
      ordinary.id,
      { type: "cheer_sent", cheer: "seen" },
      { at: "2026-11-21T15:05:00Z" },
    );
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 5, 10 * MINUTE);
    await r.time.advance(3 * MINUTE);

    const again = repeats(r, ordinary.id);
    expect(again.map((a) => a.id)).toEqual(
      r.sim
        .journal(ordinary.id)
        .slice(0, 2)
        .map((e) => e.id),
    );
    expect(again.every((a) => a.uncertain)).toBe(true);
    // A fact recorded after the bridge came back is news.
    expect(r.sink.events.find((e) => e.event.id === fresh.id)?.delivery.uncertain).toBe(false);
    expect(r.logs.matching(/record cannot be read/)).toHaveLength(1);
  });

  it("a destination that keeps no record (the terminal): a first start reads the day as before", async () => {
    const started = await EngineRig.start({
      start: "2026-11-21T15:00:00Z",
      prepare: (sim) => {
        sim.addEvent(
          sim.children.ordinary.id,
          { type: "cheer_sent", cheer: "bravo" },
          { at: "2026-11-21T09:00:00Z" },
        );
        return { childrenFilter: [sim.children.ordinary.id] };
      },
    });
    rig = started;
    started.sink.recordMode = "none";
    const { ordinary } = started.sim.children;
    await started.time.until(() => started.sink.eventIdsOf(ordinary.id).length === 1, 5 * MINUTE);
    expect(started.sink.events[0]?.delivery.uncertain).toBe(false);
    expect(started.logs.matching(/delivery state|delivery record/)).toEqual([]);
  });

  it("a record the journal's first pages do not reach: what it cannot settle goes marked, nothing unmarked twice", async () => {
    const r = await rigWithFacts(
      "2026-11-21T15:00:00Z",
      Array.from({ length: 2_050 }, (_, i) =>
        new Date(Date.parse("2026-11-21T05:00:00Z") + i * 10_000).toISOString(),
      ),
    );
    const { ordinary } = r.sim.children;
    await r.restartOnDamagedDataDir();
    await r.time.until(() => r.sink.eventIdsOf(ordinary.id).length === 4_100, 20 * MINUTE);
    await r.time.advance(3 * MINUTE);

    const again = repeats(r, ordinary.id);
    expect(again).toHaveLength(2_050);
    expect(again.every((a) => a.uncertain)).toBe(true);
    expect(r.logs.matching(/was not found in the journal/)).toHaveLength(1);
  }, 120_000);
});
