import { localDateOf } from "../../time/zoned.js";
import type { HomeAssistantLink } from "./connection.js";

/** One row of `recorder/statistics_during_period`: `start` in ms since the epoch (2023.3 and later). */
interface StatisticsRow {
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
  const byDate: Record<string, number> = {};
  for (const row of answer[statisticId] ?? []) {
    if (typeof row.change !== "number" || !Number.isFinite(row.change)) continue;
    byDate[localDateOf(row.start, timeZone)] = row.change;
  }
  return byDate;
}
