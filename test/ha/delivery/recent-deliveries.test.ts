import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChildRef } from "../../../src/engine/sink.js";
import { RecentDeliveries } from "../../../src/ha/delivery/recent-deliveries.js";
import { sampleDelivery, sampleDerivedDelivery } from "../../support/facts.js";

const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };

const fact = (id: string) => sampleDelivery(lea.id, id);

const ids = (owed: ReturnType<RecentDeliveries["owed"]>) => owed.map((entry) => entry.delivery.event.id);

/** Léa's fact `id` sent at `at` and answered 10 ms later. */
function roundTrip(recent: RecentDeliveries, id: string, at: number): void {
  recent.sent(lea, fact(id), at);
  recent.answered(lea, fact(id), at + 10);
}

describe("the facts Home Assistant answered lately", () => {
  it("owes nothing while the link has not dropped", () => {
    const recent = new RecentDeliveries(30_000);
    recent.answered(lea, fact("a"), 1_000);
    expect(recent.recordsInDoubt()).toEqual([]);
    expect(recent.owed(lea.id, "journal", undefined)).toEqual([]);
  });

  it("owes, after a drop, what was answered within the window and after the record", () => {
    const recent = new RecentDeliveries(30_000);
    recent.answered(lea, fact("a"), 0);
    recent.answered(lea, fact("b"), 40_000);
    recent.answered(lea, fact("c"), 41_000);
    recent.answered(lea, fact("d"), 42_000);
    recent.dropped(50_000);
    expect(recent.recordsInDoubt()).toEqual([{ child: lea, stream: "journal" }]);
    // The record restored from an older save: everything in the window goes again, `a` does not.
    expect(ids(recent.owed(lea.id, "journal", "a"))).toEqual(["b", "c", "d"]);
    expect(ids(recent.owed(lea.id, "journal", undefined))).toEqual(["b", "c", "d"]);
    // The record saved after `c`: only what came after it.
    expect(ids(recent.owed(lea.id, "journal", "c"))).toEqual(["d"]);
    // The record names the last fact answered: Home Assistant kept everything.
    expect(ids(recent.owed(lea.id, "journal", "d"))).toEqual([]);
  });

  it("owes nothing when the record names the fact whose answer the drop took", () => {
    // A stop ended the link just after the script of `c` ran: Home Assistant recorded `c`, the
    // bridge never heard back. Its record is not behind: `a` and `b` set off what they had to.
    const recent = new RecentDeliveries(30_000);
    roundTrip(recent, "a", 1_000);
    roundTrip(recent, "b", 1_020);
    recent.sent(lea, fact("c"), 1_040);
    recent.dropped(1_050);
    expect(ids(recent.owed(lea.id, "journal", "c"))).toEqual([]);
    // The script of `c` never ran, or its record was lost with what came before: as before.
    expect(ids(recent.owed(lea.id, "journal", "b"))).toEqual([]);
    expect(ids(recent.owed(lea.id, "journal", "a"))).toEqual(["b"]);
    // A fact never answered is the engine's to send again (in doubt), not a redelivery.
    expect(ids(recent.owed(lea.id, "journal", undefined))).toEqual(["a", "b"]);
  });

  it("keeps the last fact sent however old, so that a record naming it owes nothing", () => {
    const recent = new RecentDeliveries(30_000);
    roundTrip(recent, "a", 0);
    roundTrip(recent, "b", 60_000);
    recent.sent(lea, fact("c"), 60_020);
    recent.dropped(120_000);
    // `c` was sent a minute before the drop, and never answered: still the one the record names.
    expect(ids(recent.owed(lea.id, "journal", "c"))).toEqual([]);
    expect(recent.recordsInDoubt()).toEqual([]);
  });

  it("leaves out a child whose facts were all answered before the window", () => {
    const recent = new RecentDeliveries(30_000);
    recent.answered(lea, fact("a"), 0);
    recent.answered(noah, fact("n"), 45_000);
    recent.dropped(60_000);
    expect(recent.recordsInDoubt()).toEqual([{ child: noah, stream: "journal" }]);
    expect(recent.owed(lea.id, "journal", undefined)).toEqual([]);
  });

  it("keeps the earliest drop until settled, and a fact sent again keeps its place", () => {
    const recent = new RecentDeliveries(30_000);
    recent.answered(lea, fact("a"), 10_000);
    recent.answered(lea, fact("b"), 11_000);
    recent.answered(lea, fact("c"), 12_000);
    recent.dropped(20_000);
    // A check that sent `a` and `b` again, then the link dropped again before `c`.
    recent.answered(lea, fact("a"), 70_000);
    recent.answered(lea, fact("b"), 71_000);
    recent.dropped(72_000);
    // Home Assistant kept them (the link failed, Core did not): `c` is still owed, once, in order.
    expect(ids(recent.owed(lea.id, "journal", "b"))).toEqual(["c"]);
    // Core died again: all three, in their order.
    expect(ids(recent.owed(lea.id, "journal", undefined))).toEqual(["a", "b", "c"]);
    expect(recent.unsettled).toBe(true);
    recent.settled();
    expect(recent.unsettled).toBe(false);
    expect(recent.recordsInDoubt()).toEqual([]);
    expect(recent.owed(lea.id, "journal", undefined)).toEqual([]);
  });

  it("keeps a child's journal and her derived facts apart: each record names its own stream", () => {
    const recent = new RecentDeliveries(30_000);
    const derived = (id: string) => sampleDerivedDelivery(lea.id, id);
    recent.answered(lea, fact("a"), 40_000);
    recent.answered(lea, derived("derived:x"), 41_000);
    recent.answered(lea, fact("b"), 42_000);
    recent.answered(lea, derived("derived:y"), 43_000);
    recent.dropped(50_000);
    expect(recent.recordsInDoubt()).toEqual([
      { child: lea, stream: "journal" },
      { child: lea, stream: "derived" },
    ]);
    // Each record kept its last fact: nothing owed, whatever the other stream sent after it.
    expect(ids(recent.owed(lea.id, "journal", "b"))).toEqual([]);
    expect(ids(recent.owed(lea.id, "derived", "derived:y"))).toEqual([]);
    // Each record restored from an older save: only its own stream's facts go again.
    expect(ids(recent.owed(lea.id, "journal", "a"))).toEqual(["b"]);
    expect(ids(recent.owed(lea.id, "derived", "derived:x"))).toEqual(["derived:y"]);
    expect(ids(recent.owed(lea.id, "derived", undefined))).toEqual(["derived:x", "derived:y"]);
  });

  it("keeps the last fact of each stream however old", () => {
    const recent = new RecentDeliveries(30_000);
    roundTrip(recent, "a", 0);
    recent.sent(lea, sampleDerivedDelivery(lea.id, "derived:x"), 10);
    recent.answered(lea, sampleDerivedDelivery(lea.id, "derived:x"), 20);
    roundTrip(recent, "b", 60_000);
    recent.dropped(70_000);
    // The derived record names its last fact, sent before the window: nothing of it is owed.
    expect(ids(recent.owed(lea.id, "derived", "derived:x"))).toEqual([]);
    expect(recent.recordsInDoubt()).toEqual([{ child: lea, stream: "journal" }]);
  });

  it("forgets what is older than the window as new answers come", () => {
    const recent = new RecentDeliveries(30_000);
    recent.answered(lea, fact("a"), 0);
    recent.answered(lea, fact("b"), 31_000);
    // `a` is gone: a record naming it is not found, and only `b` is owed either way.
    recent.dropped(31_500);
    expect(ids(recent.owed(lea.id, "journal", "a"))).toEqual(["b"]);
  });

  describe("a window after the answers", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A catch-up: `count` facts of each child, sent and answered within a second. */
    function catchUp(recent: RecentDeliveries, count: number): void {
      for (let i = 0; i < count; i++) {
        for (const child of [lea, noah]) {
          const delivery = sampleDelivery(child.id, `${child.id}-${i}`);
          recent.sent(child, delivery);
          recent.answered(child, delivery);
        }
      }
    }

    it("forgets a catch-up's facts, keeping each child's last, with no new fact to prompt it", async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      const recent = new RecentDeliveries(30_000);
      catchUp(recent, 300);
      expect(recent.size).toBe(600);
      await vi.advanceTimersByTimeAsync(30_000);
      expect(recent.size).toBe(600);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(recent.size).toBe(2);
      // The last ones still tell a record naming them that nothing is owed.
      recent.dropped();
      expect(ids(recent.owed(lea.id, "journal", "c-lea-299"))).toEqual([]);
      expect(vi.getTimerCount()).toBe(0);
    });

    it("keeps everything an unsettled drop may owe until it is settled", async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      const recent = new RecentDeliveries(30_000);
      catchUp(recent, 50);
      await vi.advanceTimersByTimeAsync(5_000);
      recent.dropped();
      // Home Assistant takes minutes to come back: its check finds what the drop owes.
      await vi.advanceTimersByTimeAsync(120_000);
      expect(recent.size).toBe(100);
      expect(ids(recent.owed(lea.id, "journal", "c-lea-47"))).toEqual(["c-lea-48", "c-lea-49"]);
      recent.settled();
      await vi.advanceTimersByTimeAsync(31_000);
      expect(recent.size).toBe(2);
    });

    it("sweeps again while facts answered since the last sweep are kept", async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      const recent = new RecentDeliveries(30_000);
      catchUp(recent, 10);
      await vi.advanceTimersByTimeAsync(20_000);
      // More facts, answered 20 s after the first: the first sweep leaves them (within the window).
      for (let i = 10; i < 20; i++) recent.answered(lea, sampleDelivery(lea.id, `c-lea-${i}`));
      await vi.advanceTimersByTimeAsync(11_000);
      expect(recent.size).toBe(11);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(recent.size).toBe(11);
      await vi.advanceTimersByTimeAsync(11_000);
      expect(recent.size).toBe(2);
    });

    it("tells the history what it need no longer keep", async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      const forgotten: number[] = [];
      const recent = new RecentDeliveries(30_000, {
        load: () => [],
        sent: () => {},
        answered: () => {},
        forget: (before) => forgotten.push(before),
      });
      catchUp(recent, 3);
      await vi.advanceTimersByTimeAsync(31_000);
      expect(forgotten).toEqual([1_001_000]);
    });
  });
});
