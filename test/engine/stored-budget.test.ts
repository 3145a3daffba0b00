import { describe, expect, it } from "vitest";
import type { StoredRequests } from "../../src/engine/storage.js";
import { type BudgetBounds, checkStoredHistory } from "../../src/engine/stored-budget.js";

const NOW = Date.parse("2026-11-23T10:00:00Z");
const MINUTE = 60_000;
const bounds: BudgetBounds = {
  now: NOW,
  maxPauseMs: 10 * MINUTE,
  minAllowance: 4,
  maxAllowance: 28,
  shortestHoldMs: 30 * MINUTE,
  longestHoldMs: 240 * MINUTE,
};
const nothing: StoredRequests = { requests: [], pausedUntil: 0 };

describe("a stored history read against what the budget can produce", () => {
  it.each<[string, number, boolean]>([
    ["no pause", 0, true],
    ["a pause that has ended", NOW - MINUTE, true],
    ["the longest pause, just begun", NOW + 10 * MINUTE, true],
    ["a pause a moment beyond it", NOW + 10 * MINUTE + 1, false],
    ["a pause of years", Date.parse("2100-01-01T00:00:00Z"), false],
    ["a pause that is not a number", Number.NaN, false],
    ["a pause too long to hold", Number.POSITIVE_INFINITY, false],
  ])("%s", (_what, pausedUntil, kept) => {
    const checked = checkStoredHistory({ ...nothing, pausedUntil }, bounds);
    expect(checked.kept.pausedUntil).toBe(kept ? pausedUntil : 0);
    expect(checked.ignoredPause === undefined).toBe(kept);
  });

  it.each<[string, { sentAt: number; settledAt?: number }, boolean]>([
    ["a request answered", { sentAt: NOW - 5_000, settledAt: NOW - 4_000 }, true],
    ["a request never answered", { sentAt: NOW - 5_000 }, true],
    ["one stamped a few ms ahead in a burst", { sentAt: NOW + 3, settledAt: NOW + 3 }, true],
    ["one sent tomorrow", { sentAt: NOW + 24 * 60 * MINUTE }, false],
    ["one answered tomorrow", { sentAt: NOW - 5_000, settledAt: NOW + 24 * 60 * MINUTE }, false],
    ["one answered before it left", { sentAt: NOW - 5_000, settledAt: NOW - 6_000 }, false],
    ["one sent at a time too long to hold", { sentAt: Number.POSITIVE_INFINITY }, false],
    ["one answered at no time", { sentAt: NOW - 5_000, settledAt: Number.NaN }, false],
  ])("%s", (_what, request, kept) => {
    const checked = checkStoredHistory({ ...nothing, requests: [request] }, bounds);
    expect(checked.kept.requests).toEqual(kept ? [request] : []);
    expect(checked.ignoredRequests).toBe(kept ? 0 : 1);
  });

  it.each<[string, { allowance: number; at: number; holdMs?: number }, boolean]>([
    [
      "a share of the floor, holding half an hour",
      { allowance: 4, at: NOW - MINUTE, holdMs: 30 * MINUTE },
      true,
    ],
    ["a share of the whole budget, written before holds grew", { allowance: 28, at: NOW - MINUTE }, true],
    ["a share holding the longest", { allowance: 6, at: NOW - 9 * 60 * MINUTE, holdMs: 240 * MINUTE }, true],
    ["a share below the floor", { allowance: 3, at: NOW - MINUTE }, false],
    ["a share above the budget", { allowance: 999, at: NOW - MINUTE }, false],
    ["a share of a fraction", { allowance: 6.5, at: NOW - MINUTE }, false],
    ["a share shown tomorrow", { allowance: 6, at: NOW + 24 * 60 * MINUTE }, false],
    ["a share holding for ever", { allowance: 6, at: NOW - MINUTE, holdMs: 1e15 }, false],
    ["a share holding less than the first hold", { allowance: 6, at: NOW - MINUTE, holdMs: MINUTE }, false],
  ])("%s", (_what, share, kept) => {
    const checked = checkStoredHistory({ ...nothing, share }, bounds);
    expect(checked.kept.share).toEqual(kept ? share : undefined);
    expect(checked.ignoredShare).toEqual(kept ? undefined : share);
  });
});
