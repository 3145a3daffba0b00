import { addDays, localDateOf, localDayStartMs } from "../../../src/time/zoned.js";
import type { HomeAssistantInstance } from "../../lab/index.js";

/*
 * A child's screen time of the last days in Home Assistant's long-term statistics, imported through
 * the recorder's websocket (`recorder/import_statistics`) as the recorder keeps a counter's own:
 * hourly rows of the entity's statistic id with a running sum. The week's chart then shows days a
 * test cannot wait for. Rows: a zero a day before the first, then one per day (its minutes used so
 * far, the sum of every day up to it), today's at the start of the current hour.
 */

const HOUR = 3_600_000;

/** A day's row: late in the afternoon, when a day's minutes are mostly used. */
const AFTERNOON = 17 * HOUR;

export interface ScreenTimeWeek {
  /** The local date of each day imported, oldest first, today last. */
  dates: string[];
  /** The minutes used on each of those days. */
  minutes: readonly number[];
}

/**
 * Imports `minutes` (oldest first, today's last) as the statistics of `entityId` for the days
 * ending today in `timeZone`.
 */
export async function importScreenTime(
  ha: HomeAssistantInstance,
  entityId: string,
  minutes: readonly number[],
  timeZone: string,
  now = Date.now(),
): Promise<ScreenTimeWeek> {
  const today = localDateOf(now, timeZone);
  const dates = minutes.map((_, i) => addDays(today, i - (minutes.length - 1)));
  const currentHour = Math.floor(now / HOUR) * HOUR;
  const rows: Array<{ start: string; state: number; sum: number }> = [];
  const dayBefore = addDays(dates[0] as string, -1);
  rows.push({ start: new Date(localDayStartMs(dayBefore, timeZone) + HOUR).toISOString(), state: 0, sum: 0 });
  let sum = 0;
  minutes.forEach((used, i) => {
    sum += used;
    const date = dates[i] as string;
    const at = date === today ? currentHour : localDayStartMs(date, timeZone) + AFTERNOON;
    rows.push({ start: new Date(at).toISOString(), state: used, sum });
  });
  await ha.wsCommand({
    type: "recorder/import_statistics",
    metadata: {
      source: "recorder",
      statistic_id: entityId,
      name: null,
      has_sum: true,
      // 2026.11 reads these two (and warns without them); 2024.3 reads has_mean.
      ...(ha.version === "2024.3.3" ? { has_mean: false } : { mean_type: 0, unit_class: "duration" }),
      unit_of_measurement: "min",
    },
    stats: rows,
  });
  return { dates, minutes };
}
