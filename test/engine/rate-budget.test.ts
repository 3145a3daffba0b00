import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_PAUSE_MS } from "../../src/api/limits.js";
import { PACING_JITTER, RateBudget, SHARE_HOLDS_MS } from "../../src/engine/rate-budget.js";
import { REQUEST_LOG_FILE, RequestLog } from "../../src/store/request-log.js";
import { captureLogger } from "../simulator/helpers.js";
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
  let time: VirtualTime;
  beforeEach(() => {
    time = VirtualTime.install("2026-11-23T10:00:00Z");
  });
  afterEach(() => time.uninstall());

  it("takes what had fitted when a 429 comes, less a margin of three for the other client, and never less than a floor", async () => {
    const budget = await budgetWith(12);
    expect(budget.allowance()).toBe(28);
    budget.pauseAfterRateLimit(undefined);
    expect(budget.allowance()).toBe(8);
    const lonely = await budgetWith(2);
    lonely.pauseAfterRateLimit(undefined);
    expect(lonely.allowance()).toBe(4);
  });

  it("pauses briefly, jittered, doubling with each 429 in a row, and honours Retry-After", async () => {
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
    expect(new Set(pauses.map((p, i) => Math.round((p / (bases[i] as number)) * 100))).size).toBeGreaterThan(
      1,
    );
    // A 429 more than a window after the last one starts again from the shortest pause.
    await time.advance(2 * MINUTE);
    budget.pauseAfterRateLimit(undefined);
    expect(budget.waitMs()).toBeLessThanOrEqual(5_000);
    const told = await budgetWith(20);
    await time.advance(2 * MINUTE);
    told.pauseAfterRateLimit(12_000);
    expect(told.waitMs()).toBe(12_000);
  });

  it("holds the share a 429 showed for half an hour, then gives one request back every two calm minutes", async () => {
    const budget = await budgetWith(10);
    budget.pauseAfterRateLimit(undefined);
    expect(budget.allowance()).toBe(6);
    // The other client's refusals are not the bridge's to see: it takes no more than what fitted.
    await time.advance(SHARE_HOLDS_MS - MINUTE);
    expect(budget.allowance()).toBe(6);
    await time.advance(MINUTE);
    expect(budget.allowance()).toBe(7);
    await time.advance(MINUTE);
    expect(budget.allowance()).toBe(7);
    await time.advance(MINUTE);
    expect(budget.allowance()).toBe(8);
    // A probe that a refusal ends: the share it showed holds again for half an hour.
    (await budget.acquire())();
    budget.pauseAfterRateLimit(undefined);
    expect(budget.allowance()).toBe(4);
    await time.advance(SHARE_HOLDS_MS - MINUTE);
    expect(budget.allowance()).toBe(4);
    // A calm hour and more brings it back to the full budget, and no further.
    for (let i = 0; i < 60; i++) {
      await time.advance(2 * MINUTE);
      budget.allowance();
    }
    expect(budget.allowance()).toBe(28);
  });

  it("spaces out its tries for more: each that a 429 ends holds the share twice as long, up to four hours", async () => {
    const budget = await budgetWith(10);
    budget.pauseAfterRateLimit(undefined);
    /** How long the share holds, from the 429 that showed it until the allowance first grows. */
    const hold = async () => {
      const from = Date.now();
      const share = budget.allowance();
      while (budget.allowance() === share) await time.advance(MINUTE);
      return (Date.now() - from) / MINUTE;
    };
    const holds: number[] = [];
    for (let i = 0; i < 5; i++) {
      holds.push(await hold());
      // A try for more, and a refusal ends it: the other client is still there.
      (await budget.acquire())();
      budget.pauseAfterRateLimit(undefined);
    }
    expect(holds).toEqual([30, 60, 120, 240, 240]);
    // The other client gone: the bridge grows back to the whole token. A 429 after that comes
    // from a client new to it, and holds half an hour again.
    while (budget.allowance() < 28) await time.advance(2 * MINUTE);
    (await budget.acquire())();
    budget.pauseAfterRateLimit(undefined);
    expect(await hold()).toBe(30);
  });

  it("falls back to the share that held when a 429 ends a try for more, though more had fitted", async () => {
    const budget = await budgetWith(10);
    budget.pauseAfterRateLimit(undefined);
    expect(budget.allowance()).toBe(6);
    await time.advance(SHARE_HOLDS_MS + 10 * MINUTE);
    expect(budget.allowance()).toBe(12);
    // The try had grown to 12 a minute before the refusal fell on the bridge: that many had
    // fitted, but only because the other client's own requests were refused.
    for (let i = 0; i < 12; i++) {
      await time.advance(budget.waitMs());
      (await budget.acquire())();
    }
    expect(budget.usedInWindow()).toBeGreaterThanOrEqual(11);
    budget.pauseAfterRateLimit(undefined);
    expect(budget.allowance()).toBe(6);
  });

  it("keeps to the share and its hold across a restart of the bridge, spread over the window", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-budget-"));
    try {
      const history = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
      const budget = new RateBudget({ history, random: seededRandom(3) });
      for (let i = 0; i < 10; i++) (await budget.acquire())();
      budget.pauseAfterRateLimit(undefined);
      history.close();
      await time.advance(10 * MINUTE);
      // A new process on the same data directory: not the full 28 again, not all at once.
      const reopened = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
      const restarted = new RateBudget({ history: reopened, random: seededRandom(4) });
      expect(restarted.allowance()).toBe(6);
      (await restarted.acquire())();
      expect(restarted.waitMs()).toBeGreaterThan((MINUTE / 6) * (1 - PACING_JITTER) - 1);
      // And it grows back on the same clock as if it had not restarted.
      await time.advance(SHARE_HOLDS_MS - 10 * MINUTE);
      expect(restarted.allowance()).toBe(7);
      // A try that a refusal ends: the next hold, an hour, outlives a restart too.
      (await restarted.acquire())();
      restarted.pauseAfterRateLimit(undefined);
      reopened.close();
      const again = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
      const later = new RateBudget({ history: again, random: seededRandom(5) });
      const share = later.allowance();
      await time.advance(2 * SHARE_HOLDS_MS - MINUTE);
      expect(later.allowance()).toBe(share);
      await time.advance(MINUTE);
      expect(later.allowance()).toBe(share + 1);
      again.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("spreads a shared token's requests over the window, jittered, never more than its allowance", async () => {
    // Alone: a start's reads all leave at once.
    const alone = new RateBudget({ random: seededRandom(3) });
    for (let i = 0; i < 10; i++) {
      expect(alone.waitMs(), `request ${i + 1} alone`).toBe(0);
      (await alone.acquire())();
    }
    const budget = await budgetWith(10);
    budget.pauseAfterRateLimit(undefined);
    const sent: Array<{ at: number; allowance: number }> = [];
    // As fast as the budget lets them go, for three quarters of an hour.
    while (Date.now() < Date.parse("2026-11-23T10:45:00Z")) {
      await time.advance(budget.waitMs());
      (await budget.acquire())();
      sent.push({ at: Date.now(), allowance: budget.allowance() });
    }
    for (const request of sent) {
      const inWindow = sent.filter((r) => r.at > request.at - MINUTE && r.at <= request.at).length;
      expect(inWindow).toBeLessThanOrEqual(request.allowance);
    }
    // Never a burst: each request about a sixth of a minute after the one before, not all alike.
    const gaps = sent.slice(1).map((r, i) => r.at - (sent[i] as (typeof sent)[number]).at);
    const even = MINUTE / 6;
    const held = gaps.slice(0, 200).filter((_, i) => (sent[i + 1]?.allowance ?? 0) === 6);
    expect(Math.min(...held)).toBeGreaterThanOrEqual(Math.floor(even * (1 - PACING_JITTER)));
    expect(Math.max(...held)).toBeLessThanOrEqual(Math.ceil(even * (1 + PACING_JITTER)) + 1);
    expect(new Set(held.map((g) => Math.round(g / 100))).size).toBeGreaterThan(5);
    // It grew back once the share had held half an hour, one request at a time.
    expect(sent.at(-1)?.allowance).toBeGreaterThan(6);
  });
});

describe("the rate budget's bounds (fake clock)", () => {
  let time: VirtualTime;
  let dir: string;
  beforeEach(async () => {
    time = VirtualTime.install("2026-11-23T10:00:00Z");
    dir = await mkdtemp(join(tmpdir(), "rf-budget-"));
  });
  afterEach(async () => {
    time.uninstall();
    await rm(dir, { recursive: true, force: true });
  });

  it("never pauses longer than the longest pause, whatever it is told", async () => {
    const budget = await budgetWith(3);
    budget.pauseAfterRateLimit(99_999_999_000);
    expect(budget.waitMs()).toBe(MAX_PAUSE_MS);
    budget.pauseAfterRateLimit(Number.POSITIVE_INFINITY);
    expect(budget.waitMs()).toBe(MAX_PAUSE_MS);
    // A delay that is no number: the budget's own short pause, not a wait that is never over.
    await time.advance(MAX_PAUSE_MS + 2 * MINUTE);
    budget.pauseAfterRateLimit(Number.NaN);
    expect(budget.waitMs()).toBeGreaterThan(0);
    expect(budget.waitMs()).toBeLessThanOrEqual(5_000);
  });

  it("ignores a stored pause, requests and a share out of range, one line each kind, and forgets them", async () => {
    const now = Date.now();
    await writeFile(
      join(dir, REQUEST_LOG_FILE),
      [
        `e${now - 5_000} ${now - 4_900}`,
        // A pause of three years, requests sent tomorrow or with a time too long to hold, a share
        // the budget never makes (and a second of each kind: still one line each).
        `p${now + 3 * 365 * 24 * 60 * MINUTE}`,
        `p${"9".repeat(400)}`,
        `s${now + 24 * 60 * MINUTE}`,
        `e${now - 3_000} ${now + 24 * 60 * MINUTE}`,
        `s${"9".repeat(400)}`,
        `a${now - MINUTE} 999 ${SHARE_HOLDS_MS}`,
        "",
      ].join("\n"),
    );
    const { logger, lines } = captureLogger();
    const history = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
    const budget = new RateBudget({ history, random: seededRandom(3), logger });
    const said = lines.map((line) => JSON.parse(line) as { level: number; msg: string; count?: number });
    expect(said.map((l) => [l.level, l.msg])).toEqual([
      [40, expect.stringMatching(/^ignoring the stored pause of API requests: it ends more than 10 minutes/)],
      [
        40,
        expect.stringMatching(/^ignoring stored API requests sent in the future or with unreadable times/),
      ],
      [40, expect.stringMatching(/^ignoring the stored share of the API token/)],
    ]);
    expect(said[1]?.count).toBe(3);
    // What was kept counts; the rest is gone: no pause, the whole token, one request in the window.
    expect(budget.waitMs()).toBe(0);
    expect(budget.allowance()).toBe(budget.perWindow);
    expect(budget.usedInWindow()).toBe(1);
    history.close();
    // And gone from the file: the next start has nothing to say.
    const reopened = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
    const again = captureLogger();
    new RateBudget({ history: reopened, logger: again.logger });
    expect(again.lines).toEqual([]);
    expect(reopened.load()).toEqual({
      requests: [{ sentAt: now - 5_000, settledAt: now - 4_900 }],
      pausedUntil: 0,
    });
    reopened.close();
  });

  it("keeps what lies in range as it is, without a word", async () => {
    const history = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
    const budget = new RateBudget({ history, random: seededRandom(3) });
    for (let i = 0; i < 10; i++) (await budget.acquire())();
    budget.pauseAfterRateLimit(MAX_PAUSE_MS);
    history.close();
    const { logger, lines } = captureLogger();
    const reopened = RequestLog.open({ dataDir: dir, keepMs: 120_000 });
    const restarted = new RateBudget({ history: reopened, logger });
    expect(lines).toEqual([]);
    expect(restarted.waitMs()).toBe(MAX_PAUSE_MS);
    expect(restarted.allowance()).toBe(6);
    reopened.close();
  });
});
