import { describe, expect, it } from "vitest";
import { RateBudget } from "../../src/engine/rate-budget.js";
import { seededRandom } from "../support/engine-rig.js";
import { VirtualTime } from "../support/virtual-time.js";

const MINUTE = 60_000;

/** A budget with `sent` requests answered just now. */
async function budgetWith(sent: number, random = seededRandom(3)) {
  const budget = new RateBudget({ random });
  for (let i = 0; i < sent; i++) (await budget.acquire())();
  return budget;
}

describe("the rate budget on a shared token (fake clock)", () => {
  it("takes one less than what it had sent when a 429 comes, and never less than a floor", async () => {
    const time = VirtualTime.install("2026-11-23T10:00:00Z");
    try {
      const budget = await budgetWith(12);
      expect(budget.allowance()).toBe(28);
      budget.pauseAfterRateLimit(undefined);
      expect(budget.allowance()).toBe(11);
      const lonely = await budgetWith(2);
      lonely.pauseAfterRateLimit(undefined);
      expect(lonely.allowance()).toBe(4);
    } finally {
      time.uninstall();
    }
  });

  it("pauses briefly, jittered, doubling with each 429 in a row, and honours Retry-After", async () => {
    const time = VirtualTime.install("2026-11-23T10:00:00Z");
    try {
      const pauses: number[] = [];
      // Requests long answered: only the pause holds the next one back.
      const budget = await budgetWith(20);
      await time.advance(2 * MINUTE);
      for (let i = 0; i < 5; i++) {
        budget.pauseAfterRateLimit(undefined);
        const pause = budget.waitMs();
        pauses.push(pause);
        await time.advance(pause);
      }
      const bases = [5_000, 10_000, 20_000, 40_000, 60_000];
      pauses.forEach((pause, i) => {
        expect(pause, `pause ${i + 1}`).toBeGreaterThanOrEqual((bases[i] as number) / 2);
        expect(pause, `pause ${i + 1}`).toBeLessThanOrEqual(bases[i] as number);
      });
      // Jittered: not the same fraction every time (two clients would otherwise keep in step).
      expect(
        new Set(pauses.map((p, i) => Math.round((p / (bases[i] as number)) * 100))).size,
      ).toBeGreaterThan(1);
      // A 429 more than a window after the last one starts again from the shortest pause.
      await time.advance(2 * MINUTE);
      budget.pauseAfterRateLimit(undefined);
      expect(budget.waitMs()).toBeLessThanOrEqual(5_000);
      const told = await budgetWith(20);
      await time.advance(2 * MINUTE);
      told.pauseAfterRateLimit(12_000);
      expect(told.waitMs()).toBe(12_000);
    } finally {
      time.uninstall();
    }
  });

  it("gives one request back every two calm minutes, up to its own limit", async () => {
    const time = VirtualTime.install("2026-11-23T10:00:00Z");
    try {
      const budget = await budgetWith(10);
      budget.pauseAfterRateLimit(undefined);
      expect(budget.allowance()).toBe(9);
      await time.advance(2 * MINUTE);
      expect(budget.allowance()).toBe(10);
      await time.advance(MINUTE);
      expect(budget.allowance()).toBe(10);
      await time.advance(MINUTE);
      expect(budget.allowance()).toBe(11);
      await time.advance(60 * MINUTE);
      for (let i = 0; i < 30; i++) budget.allowance();
      expect(budget.allowance()).toBeLessThanOrEqual(28);
      // A calm hour brings it back to the full budget.
      await time.advance(2 * 60 * MINUTE);
      for (let i = 0; i < 60; i++) {
        await time.advance(2 * MINUTE);
        budget.allowance();
      }
      expect(budget.allowance()).toBe(28);
    } finally {
      time.uninstall();
    }
  });

  it("never lets more than its allowance leave in a window", async () => {
    const time = VirtualTime.install("2026-11-23T10:00:00Z");
    try {
      const budget = await budgetWith(10);
      budget.pauseAfterRateLimit(undefined);
      const sent: Array<{ at: number; allowance: number }> = [];
      for (let i = 0; i < 60; i++) {
        await time.advance(budget.waitMs());
        (await budget.acquire())();
        sent.push({ at: Date.now(), allowance: budget.allowance() });
      }
      for (const request of sent) {
        const inWindow = sent.filter((r) => r.at > request.at - MINUTE && r.at <= request.at).length;
        expect(inWindow).toBeLessThanOrEqual(request.allowance);
      }
      // It grew back meanwhile, one request at a time.
      expect(sent.at(-1)?.allowance).toBeGreaterThan(9);
    } finally {
      time.uninstall();
    }
  });
});
