import { afterEach, describe, expect, it } from "vitest";
import { isDerived } from "../../src/engine/derived-facts.js";
import { EngineRig } from "../support/engine-rig.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const eventsPolls = (r: EngineRig, childId: string) =>
  r.served(new RegExp(`^/children/${childId}/events`)).map((s) => ({ ...s, since: sinceOf(s.path) }));

function sinceOf(path: string): string | undefined {
  const value = new URL(path, "http://x").searchParams.get("since");
  return value ?? undefined;
}

describe("every journal fact exactly once", () => {
  it("drains a 1,000-event backlog at once, page after page, within the budget", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T15:00:00Z",
      prepare: (sim) => {
        const { ordinary } = sim.children;
        // 1,000 facts earlier today, in bursts sharing one recorded_at.
        for (let i = 0; i < 10; i++) sim.addEvents(ordinary.id, 100, { at: `2026-11-21T0${i % 10}:30:00Z` });
        return { childrenFilter: [ordinary.id] };
      },
    });
    const { ordinary } = rig.sim.children;
    await rig.time.until(
      () =>
        rig !== undefined &&
        rig.sink.eventIdsOf(ordinary.id).length === 1_000 &&
        eventsPolls(rig, ordinary.id).length >= 11,
      2 * MINUTE,
    );

    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    // 10 full pages and one that shows the end, back to back: no waiting 30 s between pages.
    const polls = eventsPolls(rig, ordinary.id);
    expect(polls.length).toBeGreaterThanOrEqual(11);
    expect((polls[10]?.at ?? 0) - (polls[0]?.at ?? 0)).toBeLessThan(30_000);
    expect(rig.served().filter((r) => r.status === 429)).toEqual([]);
  });

  it("reads every child's today, and every journal, before the rest of one child's long backlog", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T15:00:00Z",
      prepare: (sim) => {
        const { ordinary } = sim.children;
        for (let i = 0; i < 10; i++) sim.addEvents(ordinary.id, 100, { at: `2026-11-21T0${i}:30:00Z` });
        return {};
      },
    });
    const { ordinary, custody, unsynced } = rig.sim.children;
    await rig.time.until(() => rig?.sink.eventIdsOf(ordinary.id).length === 1_000, 2 * MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));

    const paths = rig.served().map((r) => r.path);
    const first = (id: string, what: string) =>
      paths.findIndex((p) => p.startsWith(`/children/${id}/${what}`));
    const backlogPages = paths.flatMap((p, i) =>
      p.startsWith(`/children/${ordinary.id}/events`) ? [i] : [],
    );
    expect(backlogPages.length).toBeGreaterThanOrEqual(10);
    // The first page, then every child's first reads, then the backlog's second page.
    for (const id of [ordinary.id, custody.id, unsynced.id]) {
      for (const what of ["today", "events"]) {
        expect(first(id, what), `${id} ${what}`).toBeGreaterThanOrEqual(0);
        expect(first(id, what), `${id} ${what}`).toBeLessThan(backlogPages[1] as number);
      }
    }
    // Its pages are facts of hours ago, which today's first read has seen: not read again for them.
    const readsDuringBacklog = paths
      .slice(backlogPages[0], (backlogPages[9] as number) + 1)
      .filter((p) => p.startsWith(`/children/${ordinary.id}/today`));
    expect(readsDuringBacklog).toHaveLength(1);
  });

  it("resumes from the stored cursor after a restart: nothing repeated, nothing lost", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      simulator: { activity: { historyDays: 0, factsPerHour: 20 } },
    });
    const { ordinary, custody } = rig.sim.children;
    await rig.time.advance(HOUR);
    const before = rig.sink.eventIdsOf(ordinary.id).length;
    expect(before).toBeGreaterThan(10);
    const cursor = await rig.cursors.get(ordinary.id);
    expect(cursor).toContain(",");

    await rig.restart();
    const firstAfter = rig.sim.requests.length;
    await rig.time.advance(HOUR);
    // The new engine asked from the stored cursor, not from the day's start.
    const firstPoll = rig.sim.requests
      .slice(firstAfter)
      .find((r) => r.path.includes(`${ordinary.id}/events`));
    expect(firstPoll?.path).toContain(`since=${encodeURIComponent(cursor as string)}`);
    for (const child of [ordinary, custody]) {
      const ids = rig.sink.eventIdsOf(child.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(
        rig.sim
          .journal(child.id)
          .slice(0, ids.length)
          .map((e) => e.id),
      );
    }
    expect(rig.sink.eventIdsOf(ordinary.id).length).toBeGreaterThan(before);
  });

  it("drops a fact read again when the cursor was not stored (crash between delivery and store)", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    rig.sim.addEvents(ordinary.id, 5, { at: "2026-11-21T08:00:00Z" });
    await rig.time.until(() => rig?.sink.events.length === 5, MINUTE);
    // As if the process had died right after delivering: the facts are delivered, the cursor gone.
    await rig.cursors.delete(ordinary.id);
    await rig.restart();
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent", cheer: "super" });
    await rig.time.until(() => rig?.sink.events.length === 6, MINUTE);
    await rig.time.advance(5 * MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
  });

  it("starts at the beginning of the household's day, with its offset, and carries on across midnight", async () => {
    // 23:50 in Tokyo (UTC+9) on 21 November.
    rig = await EngineRig.start({
      start: "2026-11-21T14:50:00Z",
      simulator: { timeZone: "Asia/Tokyo" },
      prepare: (sim) => {
        const { ordinary } = sim.children;
        sim.addEvent(ordinary.id, { type: "cheer_sent" }, { at: "2026-11-20T14:59:00Z" }); // 23:59 the day before
        sim.addEvent(ordinary.id, { type: "cheer_sent" }, { at: "2026-11-20T15:00:00Z" }); // 00:00 on the 21st
        sim.addEvent(ordinary.id, { type: "cheer_sent" }, { at: "2026-11-21T14:55:00Z" }); // 23:55, later
        sim.addEvent(ordinary.id, { type: "cheer_sent" }, { at: "2026-11-21T15:05:00Z" }); // 00:05 on the 22nd
        return { childrenFilter: [ordinary.id] };
      },
    });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(30 * MINUTE);
    const first = eventsPolls(rig, ordinary.id)[0];
    expect(first?.since).toBe("2026-11-21T00:00:00+09:00");
    const journal = rig.sim.journal(ordinary.id);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(journal.slice(1).map((e) => e.id));
    const journalFacts = rig.sink.events.filter((e) => !isDerived(e.event));
    expect(journalFacts.map((e) => e.event.day)).toEqual(["2026-11-21", "2026-11-21", "2026-11-22"]);
  });

  it("reads after midnight a fact recorded just before it, by a child with no fact until then", async () => {
    // 23:58:10 in Paris; an empty journal gives no cursor, so the polls start from the day's start.
    rig = await EngineRig.start({
      start: "2026-11-24T22:58:10Z",
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(MINUTE + 35_000);
    // 23:59:45, after a poll; the next one comes after midnight.
    const polled = eventsPolls(rig, ordinary.id).length;
    const late = rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(2 * MINUTE);
    expect(eventsPolls(rig, ordinary.id).length).toBeGreaterThan(polled);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual([late.id]);
    // Read from where the first poll started, not from the new day's start.
    const afterMidnight = eventsPolls(rig, ordinary.id).filter(
      (p) => p.at >= Date.parse("2026-11-24T23:00:00Z"),
    );
    expect(afterMidnight[0]?.since).toBe("2026-11-24T00:00:00+01:00");
  });

  it("falls back to the day's start when the API refuses the stored cursor, warns once, repeats nothing", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    rig.sim.addEvents(ordinary.id, 3, { at: "2026-11-21T08:00:00Z" });
    await rig.time.until(() => rig?.sink.events.length === 3, MINUTE);
    await rig.cursors.set(ordinary.id, "not-a-cursor");
    await rig.restart();
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(10 * MINUTE);

    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    expect(rig.served().filter((r) => r.status === 400)).toHaveLength(1);
    expect(rig.logs.matching(/refused the stored cursor/)).toHaveLength(1);
    expect(await rig.cursors.get(ordinary.id)).toContain(",");
  });

  it("copes with an API that echoes the cursor on an empty page", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      simulator: { emptyPageCursor: "echo", activity: { historyDays: 0, factsPerHour: 12 } },
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * HOUR);
    const ids = rig.sink.eventIdsOf(ordinary.id);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual(
      rig.sim
        .journal(ordinary.id)
        .slice(0, ids.length)
        .map((e) => e.id),
    );
  });

  it("holds while the sink is not ready: nothing lost, the cursor does not move", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    rig.sim.addEvents(ordinary.id, 2, { at: "2026-11-21T08:00:00Z" });
    await rig.time.until(() => rig?.sink.events.length === 2, MINUTE);
    const cursor = await rig.cursors.get(ordinary.id);

    rig.sink.setReady(false);
    const requestsBefore = rig.sim.requests.length;
    for (let i = 0; i < 4; i++) rig.sim.addEvent(ordinary.id, { type: "behavior_validated" });
    await rig.time.advance(10 * MINUTE);
    expect(rig.sink.events).toHaveLength(2);
    expect(await rig.cursors.get(ordinary.id)).toBe(cursor);
    // The loop holds: no polling while nothing could be delivered.
    expect(rig.sim.requests.length - requestsBefore).toBeLessThanOrEqual(2);

    rig.sink.setReady(true);
    await rig.time.advance(2 * MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
  });

  it("sends a fact found in doubt after a crash again, as such, and once", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T09:00:00Z",
      prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id] }),
    });
    const { ordinary } = rig.sim.children;
    rig.sim.addEvents(ordinary.id, 2, { at: "2026-11-21T08:59:00Z" });
    await rig.time.until(() => rig?.sink.events.length === 2, MINUTE);
    const [arrived, lost] = rig.sim.addEvents(ordinary.id, 2, { at: "2026-11-21T09:01:00Z" });
    // As if the last run had died in the middle of both deliveries: one fact had reached the sink,
    // the other had only been claimed. Both are in doubt; neither was acknowledged.
    await rig.restart(({ delivered }) => {
      delivered.claim(ordinary.id, arrived?.id as string);
      delivered.claim(ordinary.id, lost?.id as string);
      rig?.sink.events.push({
        childId: ordinary.id,
        event: arrived as never,
        at: Date.now(),
        delivery: {} as never,
      });
    });
    await rig.time.advance(2 * MINUTE);

    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    const resent = rig.sink.events.find((e) => e.event.id === lost?.id);
    expect(resent?.delivery.inDoubt).toBe(true);
    expect(rig.logs.matching(/had arrived already/)).toHaveLength(1);
    expect(rig.delivered.stateOf(ordinary.id, arrived?.id as string)).toBe("acknowledged");
  });

  it("tells how late each fact is, and marks a catch-up past the threshold as replayed", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T18:00:00Z",
      engine: { replayedAfterMs: 10 * MINUTE },
      prepare: (sim) => {
        // The morning's facts, read for the first time at 19:00 Paris time: a catch-up, not news.
        sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent" }, { at: "2026-11-21T07:30:00Z" });
        return { childrenFilter: [sim.children.ordinary.id] };
      },
    });
    const { ordinary } = rig.sim.children;
    await rig.time.until(() => rig?.sink.events.length === 1, MINUTE);
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.until(() => rig?.sink.events.length === 2, MINUTE);

    const [morning, fresh] = rig.sink.events.map((e) => e.delivery);
    expect(morning?.replayed).toBe(true);
    expect(morning?.ageSeconds).toBeGreaterThanOrEqual(10.5 * 3_600);
    expect(morning?.ageSeconds).toBeLessThan(10.5 * 3_600 + 60);
    expect(fresh?.replayed).toBe(false);
    expect(fresh?.ageSeconds).toBeLessThanOrEqual(31);
  });
});
