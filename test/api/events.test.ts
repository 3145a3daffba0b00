import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RewardFactsClient } from "../../src/api/client.js";
import type { ApiEvent } from "../../src/api/schemas.js";
import type { ApiSimulator, ManualClock } from "../../src/simulator/index.js";
import { captureLogger, newClient, rawGet, START_DAY_BEGINS, startQuiet } from "../simulator/helpers.js";

let sim: ApiSimulator;
let clock: ManualClock;
let client: RewardFactsClient;
let lines: string[];
let childId: string;

beforeEach(async () => {
  ({ sim, clock } = await startQuiet());
  const captured = captureLogger();
  lines = captured.lines;
  client = newClient(sim, captured.logger);
  childId = sim.children.ordinary.id;
});

afterEach(async () => {
  await client.close();
  await sim.stop();
});

/** Follows cursors from `since` until an empty page; returns the events and the page sizes. */
async function readAll(from: string): Promise<{ events: ApiEvent[]; sizes: number[]; cursor: string }> {
  const events: ApiEvent[] = [];
  const sizes: number[] = [];
  let since = from;
  for (;;) {
    const page = await client.getEvents(childId, since);
    if (page.received === 0) return { events, sizes, cursor: since };
    sizes.push(page.received);
    events.push(...page.events);
    expect(page.cursor).not.toBeNull();
    since = page.cursor as string;
  }
}

describe("event variants", () => {
  it("parses every served type, with null fields where the spec allows them", async () => {
    const behavior = sim.behaviors(childId)[0];
    const item = sim.menu(childId)[0];
    const added = [
      sim.addEvent(childId, { type: "behavior_validated", behaviorId: behavior?.id ?? null }),
      sim.addEvent(childId, { type: "behavior_validated", behaviorId: null, label: null }),
      sim.addEvent(childId, { type: "session_started", minutes: 20 }),
      sim.addEvent(childId, { type: "session_started", minutes: 0 }),
      sim.addEvent(childId, { type: "menu_item_consumed", menuItemId: item?.id ?? null }),
      sim.addEvent(childId, { type: "menu_item_consumed", menuItemId: null, label: "Glace" }),
      sim.addEvent(childId, { type: "cheer_sent", cheer: "bravo" }),
      sim.addEvent(childId, { type: "cheer_sent", cheer: "super" }),
      sim.addEvent(childId, { type: "cheer_sent", cheer: "seen" }),
    ];
    const page = await client.getEvents(childId, START_DAY_BEGINS);
    expect(page.skipped).toBe(0);
    expect(page.events).toEqual(sim.journal(childId));
    expect(new Set(page.events.map((e) => e.id))).toEqual(new Set(added.map((e) => e.id)));
    const validated = page.events.find((e) => e.type === "behavior_validated" && e.behaviorId !== null);
    expect(validated).toMatchObject({
      behaviorId: behavior?.id,
      label: behavior?.label,
      childId,
      day: "2026-01-15",
    });
    expect(page.events.find((e) => e.type === "menu_item_consumed" && e.menuItemId === null)).toMatchObject({
      label: "Glace",
    });
    expect(page.events.every((e) => e.at === "2026-01-15T09:00:00.000Z")).toBe(true);
  });

  it("skips an event of an unknown type with one warning, and the cursor still moves past it", async () => {
    const cheer = sim.addEvent(childId, { type: "cheer_sent", cheer: "seen" });
    clock.advance(1_000);
    const sticker = sim.addRawEvent(childId, { type: "sticker_sent", sticker: "star" });
    const page = await client.getEvents(childId, START_DAY_BEGINS);
    expect(page.events).toEqual([cheer]);
    expect(page).toMatchObject({ received: 2, skipped: 1 });
    expect(page.cursor?.endsWith(`,${sticker.id}`)).toBe(true);
    expect(await client.getEvents(childId, page.cursor ?? undefined)).toMatchObject({ received: 0 });
    clock.advance(1_000);
    sim.addRawEvent(childId, { type: "sticker_sent", sticker: "moon" });
    expect(await client.getEvents(childId, page.cursor ?? undefined)).toMatchObject({
      received: 1,
      skipped: 1,
    });
    expect(lines.filter((l) => l.includes("sticker_sent"))).toHaveLength(1);
  });

  it("skips a malformed event alone", async () => {
    const before = sim.addEvent(childId, { type: "cheer_sent", cheer: "bravo" });
    clock.advance(1_000);
    const bad = sim.addRawEvent(childId, { type: "cheer_sent", cheer: "wow" });
    const noAt = sim.addRawEvent(childId, {
      type: "behavior_validated",
      behaviorId: null,
      label: null,
      at: undefined,
    });
    clock.advance(1_000);
    const after = sim.addEvent(childId, { type: "session_started", minutes: 10 });
    const page = await client.getEvents(childId, START_DAY_BEGINS);
    expect(page.events).toEqual([before, after]);
    expect(page).toMatchObject({ received: 4, skipped: 2 });
    const warned = lines.filter((l) => l.includes("skipping an unreadable event")).join("\n");
    expect(warned).toContain(bad.id);
    expect(warned).toContain(noAt.id);
  });
});

describe("paging", () => {
  it("delivers 250 facts sharing one recorded_at exactly once, in order, 100 at a time", async () => {
    const at = clock.now() - 60_000;
    sim.addEvents(childId, 250, { at });
    const { events, sizes } = await readAll(START_DAY_BEGINS);
    expect(sizes).toEqual([100, 100, 50]);
    expect(events.map((e) => e.id)).toEqual(sim.journal(childId).map((e) => e.id));
    expect(new Set(events.map((e) => e.id)).size).toBe(250);
    // The id breaks the tie: the order is not the order of insertion.
    const ids = events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("continues from the cursor with newer facts only, nothing replayed, nothing skipped", async () => {
    sim.addEvents(childId, 120, { at: clock.now() - 1_000 });
    const first = await readAll(START_DAY_BEGINS);
    clock.advance(30_000);
    const later = [
      ...sim.addEvents(childId, 3, { at: clock.now() - 5_000 }),
      sim.addEvent(childId, { type: "session_started", minutes: 15 }),
    ];
    const second = await readAll(first.cursor);
    expect(second.events.map((e) => e.id).sort()).toEqual(later.map((e) => e.id).sort());
    expect([...first.events, ...second.events]).toEqual(sim.journal(childId));
  });

  it("returns a cursor `recorded_at,id` that only survives the query string URL-encoded", async () => {
    const [last] = sim.addEvents(childId, 1, { at: "2026-01-15T08:30:00.250Z" });
    const page = await client.getEvents(childId, START_DAY_BEGINS);
    expect(page.cursor).toBe(`2026-01-15T09:30:00.250+01:00,${last?.id}`);
    const cursor = page.cursor as string;
    const base = `${sim.url}/children/${childId}/events`;
    const encoded = await rawGet(`${base}?since=${encodeURIComponent(cursor)}`, sim.tokens.household);
    expect(encoded).toMatchObject({ status: 200, json: { events: [], cursor: null } });
    // Unencoded, the `+` of the offset reads as a space: the API refuses it.
    const unencoded = await rawGet(`${base}?since=${cursor}`, sim.tokens.household);
    expect(unencoded.status).toBe(400);
  });

  it("reads since as a timestamp with an offset: facts recorded at or after that instant", async () => {
    sim.addEvent(childId, { type: "cheer_sent" }, { at: "2026-01-15T08:59:59.999Z" });
    const onTime = sim.addEvent(childId, { type: "cheer_sent" }, { at: "2026-01-15T09:00:00.000Z" });
    const later = sim.addEvent(childId, { type: "cheer_sent" }, { at: "2026-01-15T09:00:00.001Z" });
    clock.advance(60_000);
    for (const since of [
      "2026-01-15T10:00:00+01:00",
      "2026-01-15T04:00:00.000-05:00",
      "2026-01-15T09:00:00Z",
    ]) {
      const page = await client.getEvents(childId, since);
      expect(
        page.events.map((e) => e.id),
        since,
      ).toEqual([onTime.id, later.id]);
    }
  });

  it("shows a fact only once the clock reaches its recorded_at", async () => {
    const future = sim.addEvent(childId, { type: "cheer_sent" }, { at: clock.now() + 60_000 });
    expect((await client.getEvents(childId, START_DAY_BEGINS)).events).toEqual([]);
    clock.advance(60_000);
    expect((await client.getEvents(childId, START_DAY_BEGINS)).events).toEqual([future]);
  });

  it("without since, serves the last 24 hours", async () => {
    sim.addEvent(childId, { type: "cheer_sent" }, { at: clock.now() - 24 * 3_600_000 - 1 });
    const recent = sim.addEvent(childId, { type: "cheer_sent" }, { at: clock.now() - 24 * 3_600_000 });
    expect((await client.getEvents(childId)).events).toEqual([recent]);
  });
});

describe.each(["null", "echo"] as const)("empty page cursor: %s", (mode) => {
  it("lets a caller keep its cursor across empty pages and still get every new fact once", async () => {
    const { sim: modeSim, clock: modeClock } = await startQuiet({ emptyPageCursor: mode });
    const modeClient = newClient(modeSim, captureLogger().logger);
    const child = modeSim.children.custody.id;
    const delivered: ApiEvent[] = [];
    // What a caller stores: the cursor of the last page that carried one.
    let stored = START_DAY_BEGINS;
    const poll = async () => {
      const page = await modeClient.getEvents(child, stored);
      delivered.push(...page.events);
      if (page.events.length === 0) {
        expect(page.cursor).toBe(mode === "null" ? null : stored);
      }
      stored = page.cursor ?? stored;
    };
    for (let round = 0; round < 4; round++) {
      if (round % 2 === 1) modeSim.addEvents(child, 3, { at: modeClock.now() });
      modeClock.advance(30_000);
      await poll();
      await poll();
    }
    expect(delivered).toEqual(modeSim.journal(child));
    expect(delivered).toHaveLength(6);
    await modeClient.close();
    await modeSim.stop();
  });
});
