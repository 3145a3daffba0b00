import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ApiEvent,
  apiEventTypes,
  behaviorValidatedSchema,
  calmDaySchema,
  cheerSentSchema,
  childrenSchema,
  errorBodySchema,
  eventsPageSchema,
  menuItemConsumedSchema,
  sessionStartedSchema,
  todayPayloadSchema,
} from "../../src/api/schemas.js";
import { type ApiSimulator, ManualClock } from "../../src/simulator/index.js";
import { rawGet, startQuiet } from "./helpers.js";

// Walks the demo household, with its automatic activity, across three simulated days and reads
// every endpoint raw: each body must match the client's schemas, strictly (no unknown event
// type, no extra field), and the figures must agree with the journal.

const strictToday = z.strictObject(todayPayloadSchema.shape);
const strictCalmDay = z.strictObject(calmDaySchema.shape);
const strictEvent = z.discriminatedUnion("type", [
  z.strictObject(behaviorValidatedSchema.shape),
  z.strictObject(sessionStartedSchema.shape),
  z.strictObject(menuItemConsumedSchema.shape),
  z.strictObject(cheerSentSchema.shape),
]);
const strictPage = z.strictObject({ events: z.array(strictEvent).max(100), cursor: z.string().nullable() });

interface Walk {
  sim: ApiSimulator;
  bodies: number;
  delivered: Map<string, ApiEvent[]>;
}

let walk: Walk;

beforeAll(async () => {
  const clock = new ManualClock("2026-03-27T05:10:00Z");
  const { sim } = await startQuiet({ clock, activity: { historyDays: 2, factsPerHour: 1.5 } });
  walk = { sim, bodies: 0, delivered: new Map() };
  const cursors = new Map<string, string>();
  const households = [
    {
      token: sim.tokens.household,
      children: [sim.children.ordinary, sim.children.custody, sim.children.unsynced],
    },
    { token: sim.tokens.other, children: [sim.children.other] },
  ];
  // Over the change to summer time (29 March) and back to a Monday.
  for (let step = 0; step < 3 * 16; step++) {
    if (step > 0) clock.advance(90 * 60_000);
    for (const { token, children } of households) {
      const list = await rawGet(`${sim.url}/children`, token);
      expect(childrenSchema.parse(list.json)).toEqual(children);
      expectJson(list);
      for (const child of children) {
        await checkToday(sim, token, child.id);
        await readEvents(sim, token, child.id, cursors);
      }
    }
  }
});

afterAll(async () => {
  await walk.sim.stop();
});

function expectJson(answer: { contentType: string | undefined }) {
  expect(answer.contentType).toMatch(/^application\/json/);
  walk.bodies++;
}

async function checkToday(sim: ApiSimulator, token: string, childId: string) {
  const answer = await rawGet(`${sim.url}/children/${childId}/today`, token);
  expectJson(answer);
  if (childId === sim.children.unsynced.id) {
    expect(answer.status).toBe(409);
    z.strictObject(errorBodySchema.shape).parse(answer.json);
    return;
  }
  expect(answer.status).toBe(200);
  if ((answer.json as { isMyDay?: unknown }).isMyDay === false) {
    strictCalmDay.parse(answer.json);
    return;
  }
  const today = strictToday.parse(answer.json);
  const facts = sim.journal(childId).filter((e) => e.day === today.date);
  const validatedIds = new Set(facts.flatMap((e) => (e.type === "behavior_validated" ? [e.behaviorId] : [])));
  for (const behavior of today.behaviors) {
    expect(behavior.status === "validated", behavior.label).toBe(validatedIds.has(behavior.id));
  }
  const rules = sim.behaviors(childId);
  const points = today.behaviors
    .filter((b) => b.status === "validated")
    .reduce((sum, b) => sum + (rules.find((r) => r.id === b.id)?.points ?? 0), 0);
  expect(today.points).toBe(points);
  expect(today.points).toBeLessThanOrEqual(today.maxPoints);
  expect(today.minutesRemaining).toBe(Math.max(0, today.minutesUnlocked - today.minutesConsumed));
  // The plan only takes rewards that were unlocked.
  expect(today.minutesConsumed).toBeLessThanOrEqual(today.minutesUnlocked);
  expect(today.mandatoryOk).toBe(rules.filter((r) => r.mandatory).every((r) => validatedIds.has(r.id)));
  const sessions = facts.filter((e) => e.type === "session_started");
  if (sessions.length === 0) {
    expect(today.session).toBeNull();
  } else {
    expect(today.session?.minutes).toBe(sessions.reduce((sum, e) => sum + e.minutes, 0));
  }
}

async function readEvents(sim: ApiSimulator, token: string, childId: string, cursors: Map<string, string>) {
  for (;;) {
    const since = cursors.get(childId) ?? "2026-03-25T00:00:00+01:00";
    const answer = await rawGet(
      `${sim.url}/children/${childId}/events?since=${encodeURIComponent(since)}`,
      token,
    );
    expectJson(answer);
    expect(answer.status).toBe(200);
    const page = strictPage.parse(answer.json);
    // The client's own schema reads it the same way.
    expect(eventsPageSchema.parse(answer.json)).toEqual(page);
    const events = page.events;
    const delivered = walk.delivered.get(childId) ?? [];
    delivered.push(...events);
    walk.delivered.set(childId, delivered);
    for (const event of events) {
      expect(event.at).toMatch(/Z$/);
      expect(event.childId).toBe(childId);
    }
    if (page.cursor === null) return;
    cursors.set(childId, page.cursor);
    if (events.length < 100) return;
  }
}

describe("the demo household over three days", () => {
  it("served only bodies that match the client's schemas", () => {
    expect(walk.bodies).toBeGreaterThan(400);
  });

  it("served every fact of every child once, in the journal's order, all of known types", () => {
    const { sim } = walk;
    const types: string[] = [];
    for (const child of [sim.children.ordinary, sim.children.custody, sim.children.other]) {
      const delivered = walk.delivered.get(child.id) ?? [];
      expect(delivered.length, child.firstName).toBeGreaterThan(50);
      expect(delivered).toEqual(sim.journal(child.id));
      expect(delivered.every((e) => apiEventTypes.includes(e.type))).toBe(true);
      types.push(...delivered.map((e) => e.type));
    }
    expect(new Set(types)).toEqual(new Set(apiEventTypes));
    expect(walk.delivered.get(sim.children.unsynced.id) ?? []).toEqual([]);
  });
});
