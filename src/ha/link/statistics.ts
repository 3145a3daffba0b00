import { localDateOf } from "../../time/zoned.js";
import type { HomeAssistantLink } from "./connection.js";

/** One row of `recorder/statistics_during_period`: `start` in ms since the epoch (2023.3 and later). */
export interface StatisticsRow {
  start: number;
  change?: number | null;
}

/**
 * The daily rise of a counter's statistics (a `total_increasing` sensor's `change`) since
 * `fromMs`, by local date in `timeZone` (Home Assistant cuts its days in its own zone). Days the
 * recorder holds nothing of are absent.
 */
export async function dailyChange(
  link: HomeAssistantLink,
  statisticId: string,
  fromMs: number,
  timeZone: string,
): Promise<Record<string, number>> {
  const answer = await link.command<Record<string, StatisticsRow[] | undefined>>({
    type: "recorder/statistics_during_period",
    start_time: new Date(fromMs).toISOString(),
    statistic_ids: [statisticId],
    period: "day",
    types: ["change"],
  });
  return changeByDate(answer[statisticId] ?? [], timeZone);
}

/** The rows' `change` by local date in `timeZone`; a row without a figure is left out. */
export function changeByDate(rows: readonly StatisticsRow[], timeZone: string): Record<string, number> {
  const byDate: Record<string, number> = {};
  for (const row of rows) {
    if (typeof row.change !== "number" || !Number.isFinite(row.change)) continue;
    byDate[localDateOf(row.start, timeZone)] = row.change;
  }
  return byDate;
}
