import { afterEach, describe, expect, it } from "vitest";
import type { DerivedFact } from "../../src/engine/derived-facts.js";
import { EngineRig } from "../support/engine-rig.js";

// Derived facts through the engine, against the simulator over loopback on the virtual clock:
// what a parent does in the app (a behavior declared, rejected, validated; a session started and
// used up; a new day) reaches the sink as the facts it shows, each once, in order, across
// restarts of the bridge, and nothing is made of a first reading or of the other household's day.

const MINUTE = 60_000;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const subjectOf = (fact: DerivedFact) => fact.id.split(":").slice(4).join(":");
const summary = (facts: readonly DerivedFact[]) => facts.map((fact) => `${fact.type}:${subjectOf(fact)}`);

async function startWith(start: string): Promise<EngineRig> {
  rig = await EngineRig.start({
    start,
    prepare: (sim) => ({ childrenFilter: [sim.children.ordinary.id, sim.children.custody.id] }),
  });
  // The first readings: what the day holds already makes no fact.
  await rig.time.advance(2 * MINUTE);
  return rig;
}

/** Saturday 15:00 in Paris, the first readings made, and the ordinary child's room behavior to declare. */
async function saturdayWithRoom() {
  const r = await startWith("2026-11-21T14:00:00Z");
  const { ordinary } = r.sim.children;
  const [, , room] = r.sim.behaviors(ordinary.id);
  if (!room) throw new Error("no room");
  return { r, ordinary, room };
}

describe("facts worked out from today's readings, through the engine", () => {
  it("a day of a parent's doings: each fact once, in order, at the reading that shows it", async () => {
    // 15:00 in Paris, on a Saturday.
    const r = await startWith("2026-11-21T14:00:00Z");
    const { ordinary } = r.sim.children;
    const [teeth, homework, room] = r.sim.behaviors(ordinary.id);
    if (!teeth || !homework || !room) throw new Error("the demo child has five behaviors");
    expect(r.sink.derivedOf(ordinary.id)).toEqual([]);

    r.sim.declareBehavior(ordinary.id, room.id);
    await r.time.advance(2 * MINUTE);
    r.sim.rejectBehavior(ordinary.id, room.id);
    await r.time.advance(2 * MINUTE);
    for (const behavior of [teeth, homework])
      r.sim.addEvent(ordinary.id, {
        type: "behavior_validated",
        behaviorId: behavior.id,
        label: behavior.label,
      });
    await r.time.advance(3 * MINUTE);
    // 3 points: 30 minutes unlocked; a session of 25 uses them down past 10 and 5.
    r.sim.addEvent(ordinary.id, { type: "session_started", minutes: 25 });
    await r.time.advance(30 * MINUTE);
    const endsAt = r.sink.derivedOf(ordinary.id).find((fact) => fact.type === "session_ended")?.at;

    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual([
      `behavior_declared:${room.id}`,
      `behavior_rejected:${room.id}`,
      "mandatory_done:day",
      "streak_extended:1",
      // 3 points: the first tier is at 2.
      "next_tier_reached:2",
      "minutes_low:s1-10",
      "minutes_low:s1-5",
      "session_ended:s1",
    ]);
    // The session's end is when it ended, not a poll later; the journal's facts came as well.
    const started = r.sim.journal(ordinary.id).find((fact) => fact.type === "session_started");
    expect(Date.parse(endsAt ?? "")).toBe(Date.parse(started?.at ?? "") + 25 * MINUTE);
    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((fact) => fact.id));
    // Noah was at the other home: nothing is made of his CalmDays.
    expect(r.sink.derivedOf(r.sim.children.custody.id)).toEqual([]);
  }, 60_000);

  it("a new household day starts with day_started, after the household's midnight", async () => {
    const r = await startWith("2026-11-21T22:50:00Z");
    const { ordinary } = r.sim.children;
    await r.time.advance(20 * MINUTE);
    const [started] = r.sink.derivedOf(ordinary.id) as DerivedFact[];
    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual(["day_started:2026-11-22"]);
    expect(started).toMatchObject({ day: "2026-11-22", period: "weekend" });
    expect(Date.parse(started?.at ?? "")).toBeGreaterThanOrEqual(Date.parse("2026-11-21T23:00:00Z"));
  }, 60_000);

  it("a restart neither repeats a fact nor makes one of the first reading after it", async () => {
    const { r, ordinary, room } = await saturdayWithRoom();
    r.sim.declareBehavior(ordinary.id, room.id);
    await r.time.advance(2 * MINUTE);
    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual([`behavior_declared:${room.id}`]);
    await r.restart();
    await r.time.advance(5 * MINUTE);
    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual([`behavior_declared:${room.id}`]);
  }, 60_000);

  it("a derived fact refused for minutes: the refusal is said once, and its end once it goes", async () => {
    const { r, ordinary, room } = await saturdayWithRoom();
    r.sink.refusingFacts = true;
    r.sim.declareBehavior(ordinary.id, room.id);
    // Journal polls go through meanwhile (nothing new in it): they do not end the refusal.
    await r.time.advance(5 * MINUTE);
    expect(r.sink.derivedOf(ordinary.id)).toEqual([]);
    expect(r.logs.matching(/refused a fact/)).toHaveLength(1);
    expect(r.logs.matching(/takes the facts again/)).toEqual([]);
    r.sink.refusingFacts = false;
    await r.time.advance(2 * MINUTE);
    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual([`behavior_declared:${room.id}`]);
    expect(r.logs.matching(/takes the facts again/)).toHaveLength(1);
  }, 60_000);

  it("facts the sink could not take stay pending across a restart, and go once it takes them", async () => {
    const { r, ordinary, room } = await saturdayWithRoom();
    r.sink.refusingFacts = true;
    r.sim.declareBehavior(ordinary.id, room.id);
    await r.time.advance(2 * MINUTE);
    expect(r.sink.derivedOf(ordinary.id)).toEqual([]);
    // While none can be sent, the bridge stops: the reading that showed it is kept with the fact.
    await r.restart();
    r.sink.refusingFacts = false;
    await r.time.advance(3 * MINUTE);
    expect(summary(r.sink.derivedOf(ordinary.id) as DerivedFact[])).toEqual([`behavior_declared:${room.id}`]);
    await r.time.advance(3 * MINUTE);
    expect(r.sink.derivedOf(ordinary.id)).toHaveLength(1);
  }, 60_000);
});
