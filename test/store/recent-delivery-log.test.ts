import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChildRef } from "../../src/engine/sink.js";
import { RecentDeliveries } from "../../src/ha/delivery/recent-deliveries.js";
import { RECENT_DELIVERY_LOG_FILE, RecentDeliveryLog } from "../../src/store/recent-delivery-log.js";
import { sampleDelivery, sampleDerivedDelivery } from "../support/facts.js";
import { captureLogger, tempDir, WARN } from "./helpers.js";

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };
const WINDOW = 30_000;

const fact = (child: ChildRef, id: string) => sampleDelivery(child.id, id, "stamp-1");

function open(dataDir: string) {
  const { logger, lines } = captureLogger();
  return { log: RecentDeliveryLog.open({ dataDir, keepMs: WINDOW, logger }), lines };
}

/** `child`'s fact `id` sent at `at` and answered 10 ms later, through a RecentDeliveries. */
function roundTrip(recent: RecentDeliveries, child: ChildRef, id: string, at: number): void {
  recent.sent(child, fact(child, id), at);
  recent.answered(child, fact(child, id), at + 10);
}

const ids = (owed: ReturnType<RecentDeliveries["owed"]>) => owed.map((entry) => entry.delivery.event.id);

describe("the recent-deliveries log", () => {
  it("gives a bridge started again the facts, their answers and what they said, in order", async () => {
    const dir = await tempDir();
    const first = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, first);
    roundTrip(recent, lea, "a", 1_000);
    roundTrip(recent, noah, "n", 1_500);
    roundTrip(recent, lea, "b", 2_000);
    // Sent, never answered: the kill came while Home Assistant had it.
    recent.sent(lea, fact(lea, "c"), 3_000);
    first.close();

    const again = open(dir).log;
    expect(again.load()).toEqual([
      { child: lea, delivery: fact(lea, "a"), sentAt: 1_000, answeredAt: 1_010 },
      { child: noah, delivery: fact(noah, "n"), sentAt: 1_500, answeredAt: 1_510 },
      { child: lea, delivery: fact(lea, "b"), sentAt: 2_000, answeredAt: 2_010 },
      { child: lea, delivery: fact(lea, "c"), sentAt: 3_000, answeredAt: undefined },
    ]);
    again.close();
  });

  it("starts a bridge with the facts of the run before in doubt, owed only where the record is behind", async () => {
    const dir = await tempDir();
    const first = open(dir).log;
    const before = new RecentDeliveries(WINDOW, first);
    roundTrip(before, lea, "old", 0);
    roundTrip(before, lea, "a", 50_000);
    roundTrip(before, lea, "b", 51_000);
    roundTrip(before, noah, "n", 52_000);
    first.close();

    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    expect(recent.unsettled).toBe(true);
    expect(recent.recordsInDoubt()).toEqual([
      { child: lea, stream: "journal" },
      { child: noah, stream: "journal" },
    ]);
    // Home Assistant came back from an older save: what it answered in the window goes again.
    expect(ids(recent.owed(lea.id, "journal", "old"))).toEqual(["a", "b"]);
    // Home Assistant kept everything (the bridge alone was killed): nothing goes again.
    expect(ids(recent.owed(noah.id, "journal", "n"))).toEqual([]);
    expect(ids(recent.owed(lea.id, "journal", "b"))).toEqual([]);
    recent.settled();
    expect(recent.recordsInDoubt()).toEqual([]);
    log.close();
  });

  it("starts with nothing in doubt on a new data directory", async () => {
    const log = open(await tempDir()).log;
    const recent = new RecentDeliveries(WINDOW, log);
    expect(recent.unsettled).toBe(false);
    expect(recent.recordsInDoubt()).toEqual([]);
    log.close();
  });

  it("forgets in memory what is out of the window, but each child's last; the file keeps it until rewritten", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    roundTrip(recent, lea, "a", 1_000);
    roundTrip(recent, noah, "n", 1_500);
    roundTrip(recent, lea, "b", 2_000);
    roundTrip(recent, lea, "c", 20_000);
    log.forget(10_000);
    expect(log.load().map((entry) => entry.delivery.event.id)).toEqual(["n", "c"]);
    log.close();
    // Killed now, the bridge finds the notes as they were, all within the window before its last.
    const loaded = open(dir).log;
    expect(loaded.load().map((entry) => entry.delivery.event.id)).toEqual(["a", "n", "b", "c"]);
    loaded.close();
  });

  it("keeps a fact sent again in its place, with its answer", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    roundTrip(recent, lea, "a", 1_000);
    roundTrip(recent, lea, "b", 2_000);
    recent.sent(lea, { ...fact(lea, "a"), ageSeconds: 9 }, 5_000);
    log.close();
    const loaded = open(dir).log;
    expect(loaded.load().map((entry) => [entry.delivery.event.id, entry.sentAt, entry.answeredAt])).toEqual([
      ["a", 5_000, 1_010],
      ["b", 2_000, 2_010],
    ]);
    loaded.close();
  });

  it("keeps, as it grows, what falls within the window before its latest note and each child's last fact", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    roundTrip(recent, noah, "n", 0);
    for (let i = 0; i < 400; i++) roundTrip(recent, lea, `f${i}`, 100_000 + i * 1_000);
    log.close();
    const text = await readFile(join(dir, RECENT_DELIVERY_LOG_FILE), "utf8");
    // Rewritten along the way: far fewer lines than the 802 notes.
    expect(text.trim().split("\n").length).toBeLessThan(600);
    // A bridge back an hour later still finds the last moments of the run before (the window is
    // measured back from the latest note, not from now), and each child's last fact.
    const loaded = open(dir).log;
    expect(loaded.load().map((entry) => entry.delivery.event.id)).toEqual([
      "n",
      ...Array.from({ length: 31 }, (_, i) => `f${369 + i}`),
    ]);
    loaded.close();
  });

  it("keeps at most the newest 1,000 facts of a child, however many fall in the window", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    roundTrip(recent, noah, "n", 0);
    for (let i = 0; i < 1_005; i++) roundTrip(recent, lea, `f${i}`, 1_000 + i);
    log.close();
    const loaded = open(dir).log;
    const ids = loaded.load().map((entry) => entry.delivery.event.id);
    expect(ids.filter((id) => id.startsWith("f"))).toEqual(
      Array.from({ length: 1_000 }, (_, i) => `f${i + 5}`),
    );
    expect(ids).toContain("n");
    loaded.close();
  });

  it("keeps a child's derived facts apart from her journal: each stream its last fact and its window", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    const derived = (id: string) => sampleDerivedDelivery(lea.id, id, "stamp-d");
    recent.sent(lea, derived("derived:x"), 0);
    recent.answered(lea, derived("derived:x"), 10);
    for (let i = 0; i < 400; i++) roundTrip(recent, lea, `f${i}`, 100_000 + i * 1_000);
    log.close();
    // Rewritten along the way: the derived record's last fact stays however old, as a child's does.
    const loaded = open(dir).log;
    const kept = loaded.load();
    expect(kept.map((entry) => entry.delivery.event.id)).toEqual([
      "derived:x",
      ...Array.from({ length: 31 }, (_, i) => `f${369 + i}`),
    ]);
    expect(kept[0]?.delivery).toEqual(derived("derived:x"));
    loaded.close();
  });

  it("skips a torn or unreadable line, says so, and keeps the rest", async () => {
    const dir = await tempDir();
    const log = open(dir).log;
    const recent = new RecentDeliveries(WINDOW, log);
    roundTrip(recent, lea, "a", 1_000);
    log.close();
    const path = join(dir, RECENT_DELIVERY_LOG_FILE);
    await appendFile(path, 'not json\n{"sent":{"child":{"id":"c-lea"}}}\n{"answered":{"childId":"c-');
    const { log: again, lines } = open(dir);
    expect(again.load().map((entry) => entry.delivery.event.id)).toEqual(["a"]);
    expect(lines.filter((line) => line.level === WARN)).toEqual([
      expect.objectContaining({
        msg: "skipped unreadable lines of the recent-deliveries log",
        unreadable: 3,
      }),
    ]);
    again.close();
  });
});
