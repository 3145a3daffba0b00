import { setTimeout as sleep } from "node:timers/promises";
import type { ApiSimulator } from "../../src/simulator/index.js";
import { addDays, localDateOf, localDayEndMs, localDayStartMs } from "../../src/simulator/zoned-time.js";

/*
 * Instants of the simulator's household for the browser's scenes. The simulator's clock is the
 * only thing faked: the bridge, Home Assistant and the browser keep real time. The custody child
 * (Noah) is at home on every other day, which day depends on the seed, so a scene that needs him
 * at home, or away, picks the day that has it.
 */

const HOUR = 3_600_000;

/**
 * 16:00 of the household's day: after school, most behaviours settled, before the evening's
 * planned sessions (school days plan them from 16:30), so the day's numbers are all there and no
 * session runs by chance. On a day the clocks change it is 15:00 or 17:00, which is as good.
 */
export function afternoonOf(sim: ApiSimulator, date: string): number {
  return localDayStartMs(date, sim.timeZone) + 16 * HOUR;
}

/** The latest afternoon not after `now` on a day that `wanted` accepts (looks back a week at most). */
export function latestAfternoon(sim: ApiSimulator, now: number, wanted: (at: number) => boolean): number {
  const today = localDateOf(now, sim.timeZone);
  for (let back = 0; back < 7; back++) {
    const at = afternoonOf(sim, addDays(today, -back));
    if (at <= now && wanted(at)) return at;
  }
  throw new Error("no afternoon of the last week fits the scene");
}

/**
 * The first afternoon after today on a day that `wanted` accepts: later than anything the bridge
 * read before, so the simulator's journal only grows, as the real service's does.
 */
export function nextAfternoon(sim: ApiSimulator, now: number, wanted: (at: number) => boolean): number {
  const today = localDateOf(now, sim.timeZone);
  for (let ahead = 1; ahead <= 7; ahead++) {
    const at = afternoonOf(sim, addDays(today, ahead));
    if (wanted(at)) return at;
  }
  throw new Error("no afternoon of the next week fits the scene");
}

/**
 * Returns once the next `spanMs` of the real clock fall within one day in `timeZone` (the
 * household's): at once, or just after midnight when the day ends sooner. For a scene on the real
 * clock that a new day would change under it (a session must end on the day it began: the new
 * day's today has none).
 */
export async function oneDayAhead(timeZone: string, spanMs: number): Promise<void> {
  const now = Date.now();
  const end = localDayEndMs(localDateOf(now, timeZone), timeZone);
  if (now + spanMs >= end) await sleep(end - now + 2_000);
}
