import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiSimulator, ManualClock } from "../../src/simulator/index.js";
import { localDateOf } from "../../src/simulator/zoned-time.js";
import { afternoonOf, latestAfternoon, nextAfternoon } from "./household-days.js";

// The browser scenes' days: an afternoon with the custody child at home before now, one with him
// away after now, whatever day of the week the suite runs on.

const wallTime = (ms: number) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(
    ms,
  );

let sim: ApiSimulator;
beforeAll(async () => {
  sim = await ApiSimulator.start({ clock: new ManualClock(Date.now()), activity: false });
});
afterAll(() => sim?.stop());

describe("household days for the browser scenes", () => {
  it("is 16:00 of the household's date, in winter and in summer", () => {
    expect(wallTime(afternoonOf(sim, "2026-01-15"))).toBe("16:00");
    expect(wallTime(afternoonOf(sim, "2026-07-15"))).toBe("16:00");
    expect(localDateOf(afternoonOf(sim, "2026-07-15"), sim.timeZone)).toBe("2026-07-15");
  });

  it("finds the latest afternoon with the custody child at home, never after now, on any day of a fortnight", () => {
    const noah = sim.children.custody.id;
    for (let day = 0; day < 14; day++) {
      const now = Date.parse("2026-11-23T09:30:00Z") + day * 86_400_000;
      const at = latestAfternoon(sim, now, (instant) => sim.isMyDay(noah, instant));
      expect(at).toBeLessThanOrEqual(now);
      expect(now - at).toBeLessThan(3 * 86_400_000);
      expect(sim.isMyDay(noah, at)).toBe(true);
      const away = nextAfternoon(sim, now, (instant) => !sim.isMyDay(noah, instant));
      expect(away).toBeGreaterThan(now);
      expect(localDateOf(away, sim.timeZone)).not.toBe(localDateOf(now, sim.timeZone));
      expect(sim.isMyDay(noah, away)).toBe(false);
    }
  });

  it("says so when no day of the week fits", () => {
    expect(() => latestAfternoon(sim, Date.now(), () => false)).toThrow(/no afternoon of the last week/);
    expect(() => nextAfternoon(sim, Date.now(), () => false)).toThrow(/no afternoon of the next week/);
  });
});
