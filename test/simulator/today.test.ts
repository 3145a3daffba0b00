import { afterEach, describe, expect, it } from "vitest";
import type { RewardFactsClient } from "../../src/api/client.js";
import type { TodayPayload } from "../../src/api/schemas.js";
import { type ApiSimulator, ManualClock } from "../../src/simulator/index.js";
import { captureLogger, newClient, rawGet, START, startQuiet } from "./helpers.js";

const running: { sim: ApiSimulator; client: RewardFactsClient }[] = [];

async function open(options: Parameters<typeof startQuiet>[0] = {}) {
  const { sim, clock } = await startQuiet(options);
  const client = newClient(sim, captureLogger().logger);
  running.push({ sim, client });
  return { sim, clock, client };
}

afterEach(async () => {
  for (const { sim, client } of running.splice(0)) {
    await client.close();
    await sim.stop();
  }
});

async function todayPayload(client: RewardFactsClient, childId: string): Promise<TodayPayload> {
  const today = await client.getToday(childId);
  if (!today.isMyDay) throw new Error(`expected an own day, got ${JSON.stringify(today)}`);
  return today;
}

describe("shared custody", () => {
  it("answers a bare CalmDay on the other household's days and a TodayPayload on its own", async () => {
    const clock = new ManualClock("2026-01-12T11:00:00Z");
    const { sim, client } = await open({ clock, activity: {} });
    const child = sim.children.custody.id;
    const kinds: boolean[] = [];
    for (let day = 0; day < 6; day++) {
      const answer = await rawGet(`${sim.url}/children/${child}/today`, sim.tokens.household);
      const today = await client.getToday(child);
      const date = new Date(clock.now()).toISOString().slice(0, 10);
      expect(answer.status).toBe(200);
      expect(today.isMyDay).toBe(sim.isMyDay(child));
      if (today.isMyDay) {
        expect(today).toMatchObject({ date, isMyDay: true });
        expect(today.behaviors.length).toBeGreaterThan(0);
      } else {
        expect(answer.json).toStrictEqual({ date, isMyDay: false });
        // The demo has no facts on the other household's days.
        expect(sim.journal(child).filter((e) => e.day === date)).toEqual([]);
      }
      kinds.push(today.isMyDay);
      clock.advance(24 * 3_600_000);
    }
    expect(kinds.slice(1)).toEqual(kinds.slice(0, -1).map((own) => !own));
    // The ordinary child of the same household has every day.
    expect(sim.isMyDay(sim.children.ordinary.id)).toBe(true);
  });

  it("answers a CalmDay every day, midnight included, for a child away at the other household", async () => {
    // 23:59:30 in Paris.
    const clock = new ManualClock("2026-01-12T22:59:30Z");
    const { sim, client } = await open({ clock, activity: {} });
    const away = sim.addChild("Camille", { custody: { kind: "away" } }).id;
    for (const step of [0, 60_000, 24 * 3_600_000, 24 * 3_600_000]) {
      clock.advance(step);
      const date = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(clock.now());
      expect(await client.getToday(away)).toStrictEqual({ date, isMyDay: false });
    }
    expect(sim.journal(away)).toEqual([]);
  });
});

describe("a running session", () => {
  it("shows endsAt from the start, and minutesConsumed rising with the clock", async () => {
    const { sim, clock, client } = await open();
    const child = sim.children.ordinary.id;
    for (const behavior of sim.behaviors(child)) {
      sim.addEvent(child, { type: "behavior_validated", behaviorId: behavior.id });
    }
    const before = await todayPayload(client, child);
    expect(before.session).toBeNull();
    expect(before.minutesUnlocked).toBeGreaterThanOrEqual(30);

    const started = sim.addEvent(child, { type: "session_started", minutes: 20 });
    const endsAt = new Date(Date.parse(started.at) + 20 * 60_000).toISOString();
    const atStart = await todayPayload(client, child);
    expect(atStart.session).toEqual({ running: true, endsAt, minutes: 20 });
    expect(atStart.minutesConsumed).toBe(0);

    clock.advance(7 * 60_000 + 30_000);
    const midway = await todayPayload(client, child);
    expect(midway.session).toEqual({ running: true, endsAt, minutes: 20 });
    expect(midway.minutesConsumed).toBe(7);
    expect(midway.minutesRemaining).toBe(before.minutesUnlocked - 7);

    clock.advance(13 * 60_000);
    const ended = await todayPayload(client, child);
    expect(ended.session).toEqual({ running: false, endsAt: null, minutes: 20 });
    expect(ended.minutesConsumed).toBe(20);
    expect(ended.minutesRemaining).toBe(before.minutesUnlocked - 20);
  });

  it("counts the day's started minutes across sessions, and a menu item's cost at once", async () => {
    const { sim, clock, client } = await open();
    const child = sim.children.ordinary.id;
    sim.addEvent(child, { type: "session_started", minutes: 10 });
    clock.advance(15 * 60_000);
    sim.addEvent(child, { type: "session_started", minutes: 5 });
    const film = sim.menu(child).find((m) => m.minutes > 0);
    sim.addEvent(child, { type: "menu_item_consumed", menuItemId: film?.id ?? null });
    const today = await todayPayload(client, child);
    expect(today.session).toMatchObject({ running: true, minutes: 15 });
    expect(today.minutesConsumed).toBe(10 + (film?.minutes ?? 0));
    // Nothing was unlocked: what was consumed cannot take the remaining below zero.
    expect(today.minutesRemaining).toBe(0);
  });
});

describe("figures from the journal", () => {
  it("derives points, statuses, tiers and the essentials from the validated behaviors", async () => {
    const { sim, client } = await open();
    const child = sim.children.ordinary.id;
    const empty = await todayPayload(client, child);
    expect(empty).toMatchObject({ points: 0, minutesUnlocked: 0, mandatoryOk: false, perfect: false });
    expect(empty.consumableToday).toBe(false);
    expect(empty.behaviors.every((b) => b.status === "todo")).toBe(true);

    const mandatory = sim.behaviors(child).filter((b) => b.mandatory);
    for (const behavior of mandatory)
      sim.addEvent(child, { type: "behavior_validated", behaviorId: behavior.id });
    const today = await todayPayload(client, child);
    const points = mandatory.reduce((sum, b) => sum + b.points, 0);
    expect(today.points).toBe(points);
    expect(today).toMatchObject({
      mandatoryOk: true,
      perfect: false,
      consumableToday: true,
      period: "school",
    });
    expect(today.behaviors.filter((b) => b.status === "validated").map((b) => b.id)).toEqual(
      mandatory.map((b) => b.id),
    );
    expect(today.maxPoints).toBe(sim.behaviors(child).reduce((sum, b) => sum + b.points, 0));
    expect(today.nextTier?.pointsNeeded).toBeGreaterThan(0);
    expect(today.streakDays).toBe(1);
  });

  it("counts a streak of successful days, broken by a day whose essentials were missed", async () => {
    const { sim, client } = await open({ clock: new ManualClock(START) });
    const child = sim.children.ordinary.id;
    const validateEssentials = (at: string) => {
      for (const b of sim.behaviors(child).filter((r) => r.mandatory)) {
        sim.addEvent(child, { type: "behavior_validated", behaviorId: b.id }, { at });
      }
    };
    validateEssentials("2026-01-11T09:00:00Z");
    validateEssentials("2026-01-13T09:00:00Z");
    validateEssentials("2026-01-14T09:00:00Z");
    expect((await todayPayload(client, child)).streakDays).toBe(2);
  });

  it.each([
    ["2026-01-15T09:00:00Z", "school"],
    ["2026-01-17T09:00:00Z", "weekend"],
    ["2026-12-22T09:00:00Z", "holiday"],
  ] as const)("gives the period of %s as %s", async (instant, period) => {
    const { sim, client } = await open({ clock: new ManualClock(instant) });
    expect((await todayPayload(client, sim.children.ordinary.id)).period).toBe(period);
  });

  it("uses the household's local date around midnight", async () => {
    const { sim, client, clock } = await open({ clock: new ManualClock("2026-01-15T22:59:59.999Z") });
    expect((await client.getToday(sim.children.ordinary.id)).date).toBe("2026-01-15");
    clock.advance(1);
    expect((await client.getToday(sim.children.ordinary.id)).date).toBe("2026-01-16");
    const event = sim.addEvent(sim.children.ordinary.id, { type: "cheer_sent" });
    expect(event).toMatchObject({ at: "2026-01-15T23:00:00.000Z", day: "2026-01-16" });
  });
});

describe("a day a parent froze", () => {
  it("allows no minutes to be used while frozen, whatever was earned, and again once thawed", async () => {
    // A Saturday: consumable without the mandatory behaviors, so only the freeze can stop it.
    const { sim, client } = await open({ clock: new ManualClock("2026-01-17T11:00:00Z"), activity: false });
    const child = sim.children.ordinary.id;
    expect(await todayPayload(client, child)).toMatchObject({ frozen: false, consumableToday: true });
    sim.freezeDay(child);
    expect(await todayPayload(client, child)).toMatchObject({ frozen: true, consumableToday: false });
    sim.freezeDay(child, false);
    expect(await todayPayload(client, child)).toMatchObject({ frozen: false, consumableToday: true });
  });
});
