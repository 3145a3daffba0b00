import { afterEach, describe, expect, it } from "vitest";
import { DEMO_EVENTS_INTERVAL_SECONDS, DEMO_TODAY_INTERVAL_SECONDS } from "../../src/demo/demo-config.js";
import { householdClock, householdOnBridgeClock, householdStart } from "../../src/demo/household-clock.js";
import { isDerived } from "../../src/engine/derived-facts.js";
import { ManualClock, ScaledClock } from "../../src/simulator/index.js";
import { EngineRig } from "../support/engine-rig.js";

// The demo's household runs on a clock of its own: from --start today, `speed` times faster than
// real time. The bridge judges the API's times against its own clock (how old a fact is, whether
// a cursor lies in the future, when a session ends) through householdOnBridgeClock.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe("householdOnBridgeClock", () => {
  const real = new ManualClock("2026-01-15T19:00:00Z");
  const startsAt = Date.parse("2026-01-15T11:00:00Z");
  const household = new ScaledClock({ speed: 600, start: startsAt, base: real });
  const onBridge = householdOnBridgeClock(household, 600, startsAt, () => real.now());

  it("brings the household's own time back to real time: a fact of it is as old as the real time since", () => {
    real.advance(30_000);
    // Five household hours after its start, 30 real seconds: 30 s ago.
    expect(real.now() - onBridge(startsAt + 5 * HOUR)).toBe(0);
    expect(real.now() - onBridge(startsAt + 5 * HOUR - 10 * MINUTE)).toBe(1_000);
    expect(real.now() - onBridge(startsAt)).toBe(30_000);
  });

  it("keeps the distances of the household's history: this morning's facts are hours old", () => {
    expect(real.now() - onBridge(startsAt - 4 * HOUR)).toBe(4 * HOUR + (real.now() - onBridge(startsAt)));
  });
});

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("the bridge on the demo's clocks", () => {
  it.each([
    // The default speed, for half an hour: a session lasts long enough to be seen running.
    [60, 30 * MINUTE],
    // The highest: the household's days go by in 24 s.
    [3_600, 90_000],
  ])(
    "at %d×, marks replayed the household's history only, and takes its cursors as they are",
    async (speed, runMs) => {
      // 20:00 in Paris, the household from 12:00 today: its clock starts 8 hours behind the real
      // one, overtakes it, then runs hours (or days) ahead.
      const now = Date.parse("2026-01-15T19:00:00Z");
      const timeZone = "Europe/Paris";
      const startsAt = householdStart({ hour: 12, minute: 0 }, timeZone, now);
      // Made at its first reading, once the rig's time is the virtual one: the demo makes it at its start.
      let made: ScaledClock | undefined;
      const clock = {
        now: () => {
          made ??= householdClock(speed, startsAt);
          return made.now();
        },
      };
      const bridgeTimeOf = householdOnBridgeClock(clock, speed, startsAt);
      rig = await EngineRig.start({
        start: new Date(now).toISOString(),
        // The demo household, its days planned as the demo's are.
        simulator: { activity: {}, timeZone, clock },
        engine: {
          eventsIntervalMs: DEMO_EVENTS_INTERVAL_SECONDS * 1000,
          todayIntervalMs: DEMO_TODAY_INTERVAL_SECONDS * 1000,
          bridgeTimeOf,
        },
      });
      await rig.time.advance(runMs);

      const events = rig.sink.events.map(({ event, delivery }) => ({
        type: event.type,
        derived: isDerived(event),
        at: Date.parse(event.at),
        replayed: delivery.replayed,
      }));
      const live = events.filter((event) => event.at >= startsAt);
      const history = events.filter((event) => event.at < startsAt - 10 * MINUTE);
      // Facts of the household's own time, hours behind the real one at first, then ahead of it.
      const journal = live.filter((event) => !event.derived);
      expect(journal.filter((event) => event.at < now - HOUR).length).toBeGreaterThan(0);
      expect(journal.filter((event) => event.at > now + runMs + HOUR).length).toBeGreaterThan(0);
      expect(live.filter((event) => event.replayed)).toEqual([]);
      // This morning's, read at the first poll: a catch-up, as on a real bridge's first start.
      expect(history.length).toBeGreaterThan(0);
      expect(history.filter((event) => !event.replayed)).toEqual([]);
      expect(rig.logs.matching(/cursor lies in the future/)).toEqual([]);
      // Sessions seen running, then ended: dated by the end the household announced.
      if (speed === 60)
        expect(live.filter((event) => event.type === "session_ended").length).toBeGreaterThan(0);
    },
  );
});
