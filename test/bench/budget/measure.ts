import { busiestMinute } from "../../support/busiest-minute.js";
import { lowerBound, type Summary, summarize } from "../stats.js";

/** What one budget run recorded, in (virtual) epoch milliseconds. */
export interface BudgetRecord {
  /** The measured span: from the engine's start to the end of the simulated hours. */
  start: number;
  end: number;
  requests: ReadonlyArray<{ at: number; status: number }>;
  /** Journal facts recorded inside [start, end]. */
  facts: ReadonlyArray<{ childId: string; id: string; recordedAt: number }>;
  /** When the sink received each fact, by id. */
  deliveredAt: ReadonlyMap<string, number>;
  /** Every today publication, per child. */
  todays: ReadonlyArray<{ childId: string; at: number }>;
}

export interface BudgetMetrics {
  requests: number;
  perMinuteMean: number;
  perMinuteMax: number;
  rateLimited: number;
  facts: number;
  /** Facts not handed to the sink by the end of the tail that follows the measured span. */
  undelivered: number;
  eventDelay: Summary;
  todayLag: Summary;
  todayAge: { mean: number; p95: number };
}

const MINUTE = 60_000;

export function measureBudget(record: BudgetRecord): BudgetMetrics {
  const inSpan = record.requests.filter((r) => r.at >= record.start && r.at < record.end);
  const delays: number[] = [];
  let undelivered = 0;
  for (const fact of record.facts) {
    const at = record.deliveredAt.get(fact.id);
    if (at === undefined) undelivered++;
    else delays.push(at - fact.recordedAt);
  }
  const pubs = todaysByChild(record.todays);
  return {
    requests: inSpan.length,
    perMinuteMean: inSpan.length / ((record.end - record.start) / MINUTE),
    perMinuteMax: busiestMinute(inSpan.map((r) => r.at)),
    rateLimited: inSpan.filter((r) => r.status === 429).length,
    facts: record.facts.length,
    undelivered,
    eventDelay: summarize(delays),
    todayLag: summarize(todayLags(record.facts, pubs)),
    todayAge: todayAge(pubs, record.end),
  };
}

function todaysByChild(todays: BudgetRecord["todays"]): Map<string, number[]> {
  const byChild = new Map<string, number[]>();
  for (const { childId, at } of todays) {
    const list = byChild.get(childId) ?? [];
    list.push(at);
    byChild.set(childId, list);
  }
  for (const list of byChild.values()) list.sort((a, b) => a - b);
  return byChild;
}

/**
 * For each fact, the time from its recorded_at to the first today publication of its child read at
 * or after it: how old the fact is when the today sensors first include it. Facts whose child has
 * no readable today (409) have no lag.
 */
export function todayLags(facts: BudgetRecord["facts"], pubs: ReadonlyMap<string, number[]>): number[] {
  const lags: number[] = [];
  for (const fact of facts) {
    const times = pubs.get(fact.childId);
    if (!times) continue;
    const next = times[lowerBound(times, fact.recordedAt)];
    if (next !== undefined) lags.push(next - fact.recordedAt);
  }
  return lags;
}

/**
 * Age of the published today reading, averaged over time (from each child's first publication to
 * `end`): between two publications `g` apart the age runs from 0 to g, so the time-mean is
 * Σg²/2 / Σg and the share of time older than x is Σmax(0, g − x) / Σg.
 */
export function todayAge(pubs: ReadonlyMap<string, number[]>, end: number): { mean: number; p95: number } {
  const gaps: number[] = [];
  for (const times of pubs.values()) {
    const upTo = times.filter((t) => t <= end);
    for (let i = 1; i < upTo.length; i++) gaps.push((upTo[i] as number) - (upTo[i - 1] as number));
    const last = upTo.at(-1);
    if (last !== undefined && end > last) gaps.push(end - last);
  }
  const total = gaps.reduce((s, g) => s + g, 0);
  if (total === 0) return { mean: Number.NaN, p95: Number.NaN };
  const olderThan = (x: number) => gaps.reduce((s, g) => s + Math.max(0, g - x), 0) / total;
  let lo = 0;
  let hi = Math.max(...gaps);
  while (hi - lo > 1) {
    const mid = (lo + hi) / 2;
    if (olderThan(mid) > 0.05) lo = mid;
    else hi = mid;
  }
  return { mean: gaps.reduce((s, g) => s + (g * g) / 2, 0) / total, p95: hi };
}
