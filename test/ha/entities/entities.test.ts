import { describe, expect, it } from "vitest";
import type { ApiEvent, TodayPayload } from "../../../src/api/schemas.js";
import { eventData } from "../../../src/ha/delivery/event-data.js";
import { statusDefinition } from "../../../src/ha/entities/catalogue.js";
import {
  type ChildIdentity,
  childEntities,
  lastFigures,
  refusedStatusEntity,
  statusEntity,
  unavailableChildEntities,
  withOffset,
} from "../../../src/ha/entities/entities.js";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";
import { slugify } from "../../../src/ha/entities/slugify.js";
import { MAX_SLUG_LENGTH, newSlugs, slugOfName } from "../../../src/ha/entities/slugs.js";
import { en } from "../../../src/ha/texts/en.js";
import { sampleCalmDay, sampleToday } from "../../support/facts.js";

const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };

const today = sampleToday;

const READ_AT = Date.parse("2026-11-21T16:00:00Z");

const byId = (states: ReturnType<typeof childEntities>) => new Map(states.map((s) => [s.entityId, s]));

describe("slugs", () => {
  it("tells apart children whose names fold alike with 4 characters of their id", () => {
    const slugs = newSlugs(slugify, [
      { id: "AB12-cd", firstName: "Léa" },
      { id: "ef34-gh", firstName: "Lea" },
      { id: "x", firstName: "Tom" },
    ]);
    expect(Object.fromEntries(slugs)).toEqual({ "AB12-cd": "lea_ab12", "ef34-gh": "lea_ef34", x: "tom" });
  });

  it("gives a newcomer whose name folds to a slug already given the suffix, never the other", () => {
    const slugs = newSlugs(slugify, [{ id: "ef34-gh", firstName: "Lea" }], new Set(["lea", "lea_ef34"]));
    expect(Object.fromEntries(slugs)).toEqual({ "ef34-gh": "lea_ef34g" });
  });

  it("makes a name that folds to nothing an id of the child's own, and two such never collide", () => {
    const slugs = newSlugs(slugify, [
      { id: "9f3c2a7b-1111-4000-8000-000000000001", firstName: "🦄" },
      { id: "5d7e0c11-2222-4000-8000-000000000002", firstName: "★ ★" },
    ]);
    expect(Object.fromEntries(slugs)).toEqual({
      "9f3c2a7b-1111-4000-8000-000000000001": "child_9f3c2a7b",
      "5d7e0c11-2222-4000-8000-000000000002": "child_5d7e0c11",
    });
  });

  it("cuts a very long name between words, within what an entity id can hold", () => {
    const long = "Marie-Antoinette Josèphe Jeanne de Habsbourg-Lorraine, archiduchesse d'Autriche";
    const slug = slugOfName(slugify, long, "x");
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slugify(long).startsWith(slug)).toBe(true);
    expect(slug.endsWith("_")).toBe(false);
    expect(slugify(long).charAt(slug.length)).toBe("_");
  });
});

describe("childEntities on the household's day", () => {
  const states = byId(childEntities(contractNames, en, lea, today, READ_AT));

  it.each([
    ["sensor.reward_facts_lea_minutes_remaining", "25"],
    ["sensor.reward_facts_lea_minutes_unlocked", "45"],
    ["sensor.reward_facts_lea_minutes_consumed", "20"],
    ["sensor.reward_facts_lea_points", "7"],
    ["sensor.reward_facts_lea_streak", "4"],
    ["sensor.reward_facts_lea_session_ends_at", "2026-11-21T17:30:00+00:00"],
    ["binary_sensor.reward_facts_lea_session_running", "on"],
    ["binary_sensor.reward_facts_lea_my_day", "on"],
    ["sensor.reward_facts_lea_period", "weekend"],
    ["binary_sensor.reward_facts_lea_consumable_today", "on"],
    ["binary_sensor.reward_facts_lea_mandatory_ok", "off"],
    ["sensor.reward_facts_lea_behaviors", "1"],
    ["binary_sensor.reward_facts_lea_screen_time_allowed", "on"],
  ])("%s is %s", (entityId, state) => {
    const entity = states.get(entityId);
    expect(entity?.state).toBe(state);
    expect(entity?.attributes).toMatchObject({ child_id: lea.id, child_name: "Léa" });
    expect(entity?.attributes.friendly_name).toMatch(/^Léa /);
    expect(entity?.attributes.icon).toMatch(/^mdi:/);
  });

  it("carries the contract's attributes", () => {
    expect(states.get("sensor.reward_facts_lea_minutes_remaining")?.attributes).toMatchObject({
      device_class: "duration",
      unit_of_measurement: "min",
      state_class: "measurement",
      is_my_day: true,
    });
    // Statistics: the minutes used are summed (their drop to 0 at midnight is a reset); what can
    // drop mid-day stays a measurement.
    expect(states.get("sensor.reward_facts_lea_minutes_consumed")?.attributes).toMatchObject({
      device_class: "duration",
      unit_of_measurement: "min",
      state_class: "total_increasing",
    });
    // Summed alike, the behaviors validated a day: the week's count of the weekly digest.
    expect(states.get("sensor.reward_facts_lea_behaviors")?.attributes.state_class).toBe("total_increasing");
    expect(states.get("sensor.reward_facts_lea_minutes_unlocked")?.attributes.state_class).toBe(
      "measurement",
    );
    expect(states.get("sensor.reward_facts_lea_points")?.attributes.state_class).toBe("measurement");
    expect(states.get("sensor.reward_facts_lea_points")?.attributes).toMatchObject({
      max_points: 12,
      next_tier_points_needed: 3,
      next_tier_units_gain: 15,
    });
    expect(states.get("sensor.reward_facts_lea_streak")?.attributes).toMatchObject({
      unit_of_measurement: "d",
    });
    expect(states.get("sensor.reward_facts_lea_session_ends_at")?.attributes).toMatchObject({
      device_class: "timestamp",
    });
    expect(states.get("binary_sensor.reward_facts_lea_session_running")?.attributes).toMatchObject({
      device_class: "running",
      session_minutes: 20,
    });
    expect(states.get("sensor.reward_facts_lea_period")?.attributes).toMatchObject({
      device_class: "enum",
      options: ["school", "holiday", "weekend"],
    });
    expect(states.get("binary_sensor.reward_facts_lea_mandatory_ok")?.attributes).toMatchObject({
      perfect: false,
      frozen: false,
      joker: true,
    });
    expect(states.get("sensor.reward_facts_lea_behaviors")?.attributes).toMatchObject({
      total: 3,
      mandatory_left: 1,
      items: [
        { id: "b1", label: "Make the bed", status: "validated", mandatory: true },
        { id: "b2", label: "Homework", status: "declared", mandatory: true },
        { id: "b3", label: "Set the table", status: "todo", mandatory: false },
      ],
    });
  });

  it("shows no end time when no session runs, null session and nextTier included", () => {
    const idle = byId(
      childEntities(contractNames, en, lea, { ...today, session: null, nextTier: null }, READ_AT),
    );
    expect(idle.get("sensor.reward_facts_lea_session_ends_at")?.state).toBe("unknown");
    expect(idle.get("binary_sensor.reward_facts_lea_session_running")?.state).toBe("off");
    expect(idle.get("sensor.reward_facts_lea_points")?.attributes.next_tier_points_needed).toBeNull();
    const stopped = byId(
      childEntities(
        contractNames,
        en,
        lea,
        { ...today, session: { running: false, endsAt: today.session?.endsAt } },
        READ_AT,
      ),
    );
    expect(stopped.get("sensor.reward_facts_lea_session_ends_at")?.state).toBe("unknown");
  });

  // The contract: on when the child may use screens now (own day, consumption allowed, minutes
  // left or a session running).
  // And why not while off, the first reason that applies (none while on).
  it.each<[string, Partial<TodayPayload>, "on" | "off", string | undefined]>([
    ["minutes left, no session", { session: null, minutesRemaining: 25 }, "on", undefined],
    ["minutes left, a session running", {}, "on", undefined],
    ["no minutes left, no session", { session: null, minutesRemaining: 0 }, "off", "no_minutes_left"],
    [
      "no minutes left, a session ended",
      { session: { running: false, minutes: 20 }, minutesRemaining: 0 },
      "off",
      "no_minutes_left",
    ],
    ["no minutes left, a session still running", { minutesRemaining: 0 }, "on", undefined],
    [
      "minutes left, consumption not allowed today",
      { consumableToday: false },
      "off",
      "not_consumable_today",
    ],
    [
      "a session running, consumption not allowed today",
      { consumableToday: false, minutesRemaining: 0 },
      "off",
      "not_consumable_today",
    ],
  ])("screen time allowed: %s (%j → %s, why_not %s)", (_case, change, expected, whyNot) => {
    const states = byId(childEntities(contractNames, en, lea, { ...today, ...change }, READ_AT));
    const allowed = states.get("binary_sensor.reward_facts_lea_screen_time_allowed");
    expect(allowed?.state).toBe(expected);
    expect(allowed?.attributes.why_not).toBe(whyNot);
    expect("why_not" in (allowed?.attributes ?? {})).toBe(whyNot !== undefined);
  });

  it("keeps attributes small however many behaviors the family has", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      id: `b${i}`,
      label: "x".repeat(400),
      status: "todo" as const,
      mandatory: false,
    }));
    for (const entity of childEntities(contractNames, en, lea, { ...today, behaviors: many }, READ_AT)) {
      expect(Buffer.byteLength(JSON.stringify(entity.attributes))).toBeLessThan(8 * 1024);
    }
  });
});

describe("childEntities on the other household's day", () => {
  const calm = sampleCalmDay;
  const states = byId(childEntities(contractNames, en, lea, calm, READ_AT));

  it("says 0 minutes remaining, my_day off and period unknown", () => {
    expect(states.get("sensor.reward_facts_lea_minutes_remaining")?.state).toBe("0");
    expect(states.get("sensor.reward_facts_lea_minutes_remaining")?.attributes.is_my_day).toBe(false);
    expect(states.get("binary_sensor.reward_facts_lea_my_day")?.state).toBe("off");
    expect(states.get("sensor.reward_facts_lea_period")?.state).toBe("unknown");
    expect(states.get("sensor.reward_facts_lea_session_ends_at")?.state).toBe("unknown");
  });

  it("says screen time is not allowed: nothing can be used at this home today", () => {
    expect(states.get("binary_sensor.reward_facts_lea_screen_time_allowed")?.state).toBe("off");
    expect(states.get("binary_sensor.reward_facts_lea_screen_time_allowed")?.attributes.why_not).toBe(
      "other_household_day",
    );
  });

  it("publishes the same entities as on the household's day", () => {
    expect([...states.keys()].sort()).toEqual(
      [...byId(childEntities(contractNames, en, lea, today, READ_AT)).keys()].sort(),
    );
  });
});

describe("unavailable and status", () => {
  it("marks every entity unavailable with the reason in words, and when it was last read", () => {
    const states = unavailableChildEntities(contractNames, en, lea, "rules_not_synced");
    expect(states).toHaveLength(13);
    expect(states.map((s) => s.entityId)).toContain("binary_sensor.reward_facts_lea_screen_time_allowed");
    for (const s of states) {
      expect(s.state).toBe("unavailable");
      expect(s.attributes).toMatchObject({
        reason: "no rules synced yet",
        child_id: lea.id,
        last_read: null,
      });
    }
    const stopped = unavailableChildEntities(contractNames, en, lea, "bridge_stopped", READ_AT);
    expect(stopped[0]?.attributes).toMatchObject({
      reason: "the bridge stopped",
      last_read: "2026-11-21T16:00:00+00:00",
    });
  });

  it("keeps her last figures on her unavailable entities, for answers that must give them", () => {
    const last = lastFigures({
      ...today,
      session: { running: true, endsAt: "2026-11-21T17:30:00Z", minutes: 20 },
    });
    expect(last).toMatchObject({
      my_day: true,
      minutes: String(today.minutesRemaining),
      session: true,
      ends: "2026-11-21T17:30:00+00:00",
      streak: String(today.streakDays),
    });
    expect(lastFigures(sampleCalmDay)).toMatchObject({
      my_day: false,
      allowed: false,
      why_not: "other_household_day",
    });
    const states = unavailableChildEntities(contractNames, en, lea, "api_unreachable", READ_AT, last);
    for (const s of states) expect(s.attributes.last_figures, s.entityId).toEqual(last);
    expect(
      unavailableChildEntities(contractNames, en, lea, "api_unreachable", READ_AT)[0]?.attributes,
    ).not.toHaveProperty("last_figures");
  });

  it("tells when each child entity was last read", () => {
    for (const state of childEntities(contractNames, en, lea, today, READ_AT)) {
      expect(state.attributes.last_read, state.entityId).toBe("2026-11-21T16:00:00+00:00");
    }
  });

  it("maps the engine status, and ha_degraded only over ok", () => {
    const status = {
      state: "ok" as const,
      requestsLastMinute: 12,
      budgetPerMinute: 28,
      demandPerMinute: 9.1,
      stretch: 1,
      todayStretch: 1,
      children: [{ id: lea.id, firstName: "Léa" }],
      rateLimitedCount: 0,
      lastError: null,
      lastTurnAt: READ_AT,
    };
    const entity = statusEntity(contractNames, en, status);
    expect(entity).toMatchObject({
      entityId: "sensor.reward_facts_status",
      state: "ok",
      attributes: {
        requests_last_minute: 12,
        budget_per_minute: 28,
        children: ["Léa"],
        last_error: null,
        last_turn: "2026-11-21T16:00:00+00:00",
      },
    });
    expect(statusEntity(contractNames, en, { ...status, state: "stopped" }, true).state).toBe("stopped");
    expect(statusEntity(contractNames, en, status, true).state).toBe("ha_degraded");
    expect(statusEntity(contractNames, en, { ...status, state: "token_invalid" }, true).state).toBe(
      "token_invalid",
    );
  });

  it("says the broker refused the bridge on the status, with the broker's reason cut to a state's length", () => {
    // Published through REST (the broker took no message): the status, its words and its icon.
    const reason = `Connection refused: Not authorized ${"x".repeat(300)}`;
    const entity = refusedStatusEntity(contractNames, en, reason);
    expect(entity).toEqual({
      entityId: "sensor.reward_facts_status",
      state: "broker_refused",
      attributes: {
        message: "The MQTT broker refused the bridge's user and password.",
        last_error: reason.slice(0, 255),
        friendly_name: "Reward Facts status",
        icon: statusDefinition.icon,
      },
    });
    expect(String(entity.attributes.last_error)).toHaveLength(255);
  });

  it("writes timestamps with an explicit offset", () => {
    expect(withOffset("2026-11-21T18:30:00+01:00")).toBe("2026-11-21T17:30:00+00:00");
    expect(withOffset("garbage")).toBeUndefined();
  });
});

describe("eventData", () => {
  const common = { id: "e1", at: "2026-11-21T08:00:00.000Z", day: "2026-11-21", childId: lea.id };
  it.each<[ApiEvent, Record<string, unknown>]>([
    [
      { ...common, type: "behavior_validated", behaviorId: "b1", label: "Make the bed" },
      { behavior_id: "b1", label: "Make the bed" },
    ],
    [{ ...common, type: "session_started", minutes: 30 }, { minutes: 30 }],
    [
      { ...common, type: "menu_item_consumed", menuItemId: null, label: "Cinema" },
      { menu_item_id: null, label: "Cinema" },
    ],
    [{ ...common, type: "cheer_sent", cheer: "bravo" }, { cheer: "bravo" }],
  ])("maps %o", (event, specific) => {
    expect(eventData(lea, { event, ageSeconds: 42, replayed: false })).toEqual({
      type: event.type,
      event_id: "e1",
      child_id: lea.id,
      at: "2026-11-21T08:00:00.000Z",
      day: "2026-11-21",
      child: "lea",
      child_name: "Léa",
      age_seconds: 42,
      replayed: false,
      derived: false,
      ...specific,
    });
  });
});

describe("the names given in Home Assistant", () => {
  const demo = new EntityNames("reward_facts_demo");

  it.each<[string, (names: EntityNames) => string, string, string]>([
    [
      "minutes",
      (n) => n.child("lea", "minutes_remaining"),
      "sensor.reward_facts_lea_minutes_remaining",
      "sensor.reward_facts_demo_lea_minutes_remaining",
    ],
    [
      "my day",
      (n) => n.child("lea", "my_day"),
      "binary_sensor.reward_facts_lea_my_day",
      "binary_sensor.reward_facts_demo_lea_my_day",
    ],
    [
      "read status",
      (n) => n.childExtra("lea", "read_status"),
      "sensor.reward_facts_lea_read_status",
      "sensor.reward_facts_demo_lea_read_status",
    ],
    [
      "journal",
      (n) => n.childExtra("lea", "journal"),
      "event.reward_facts_lea_journal",
      "event.reward_facts_demo_lea_journal",
    ],
    ["status", (n) => n.status, "sensor.reward_facts_status", "sensor.reward_facts_demo_status"],
    ["event type", (n) => n.eventType, "reward_facts_event", "reward_facts_demo_event"],
    ["delivery record", (n) => n.recordPrefix, "reward_facts_delivery_", "reward_facts_demo_delivery_"],
    [
      "derived facts record",
      (n) => n.derivedRecordPrefix,
      "reward_facts_delivery_derived_",
      "reward_facts_demo_delivery_derived_",
    ],
  ])("%s: the contract's unchanged, the demo's apart", (_what, name, contract, ofDemo) => {
    expect(name(contractNames)).toBe(contract);
    expect(name(new EntityNames())).toBe(contract);
    expect(name(demo)).toBe(ofDemo);
  });

  it("gives every entity of the mapping the demo's prefix when asked, and nothing else changes", () => {
    const asDemo = childEntities(demo, en, lea, today, READ_AT);
    const asContract = childEntities(contractNames, en, lea, today, READ_AT);
    expect(asDemo.map((s) => s.entityId)).toEqual(
      asContract.map((s) => s.entityId.replace(".reward_facts_", ".reward_facts_demo_")),
    );
    expect(asDemo.map(({ entityId: _, ...rest }) => rest)).toEqual(
      asContract.map(({ entityId: _, ...rest }) => rest),
    );
    expect(
      unavailableChildEntities(demo, en, lea, "bridge_stopped").every((s) =>
        s.entityId.includes(".reward_facts_demo_lea_"),
      ),
    ).toBe(true);
  });

  it.each(["", "Reward", "reward-facts", "_x", "x_", "a__b", "1abc"])("refuses the prefix %j", (prefix) => {
    expect(() => new EntityNames(prefix)).toThrow(RangeError);
  });
});
