import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REQUEST_LOG_FILE, RequestLog } from "../../src/store/request-log.js";

async function dataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "rf-requests-"));
}

describe("RequestLog", () => {
  it("keeps requests, their answers and a pause across a reopen", async () => {
    const dir = await dataDir();
    const now = 1_000_000;
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    log.sent(now - 10);
    log.settled(now - 10, now - 5);
    log.sent(now - 3);
    log.paused(now + 60_000);
    log.close();
    const again = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    expect(again.load()).toEqual({
      requests: [{ sentAt: now - 10, settledAt: now - 5 }, { sentAt: now - 3 }],
      pausedUntil: now + 60_000,
    });
    again.close();
  });

  it("keeps the token's share the last 429 showed, across a reopen and a rewrite", async () => {
    const dir = await dataDir();
    let now = 1_000_000;
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    expect(log.load().share).toBeUndefined();
    log.shared({ allowance: 12, at: now });
    now += 5_000;
    log.shared({ allowance: 10, at: now, holdMs: 3_600_000 });
    // Enough requests after it for the file to be rewritten, long after the requests' horizon.
    for (let i = 0; i < 500; i++) {
      now += 2_000;
      log.sent(now);
    }
    log.close();
    const again = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    expect(again.load().share).toEqual({ allowance: 10, at: 1_005_000, holdMs: 3_600_000 });
    again.close();
  });

  it("reads a share written before holds could grow, without its hold", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, REQUEST_LOG_FILE), "a1000000 7\n");
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => 1_000_000 });
    expect(log.load().share).toEqual({ allowance: 7, at: 1_000_000 });
    log.close();
  });

  it("hands damaged numbers on as read, for the budget to judge, and drops torn lines", async () => {
    const dir = await dataDir();
    const now = 1_000_000;
    const tooLong = "9".repeat(400);
    await writeFile(
      join(dir, REQUEST_LOG_FILE),
      [`s${now - 10}`, `p${tooLong}`, `s${tooLong}`, "p12x", "e5", `a${now} 999 ${tooLong}`, ""].join("\n"),
    );
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    expect(log.load()).toEqual({
      requests: [{ sentAt: now - 10 }, { sentAt: Number.POSITIVE_INFINITY }],
      pausedUntil: Number.POSITIVE_INFINITY,
      share: { at: now, allowance: 999, holdMs: Number.POSITIVE_INFINITY },
    });
    log.close();
  });

  it("holds only what the budget kept once it replaces the rest, in the file too", async () => {
    const dir = await dataDir();
    const now = 1_000_000;
    await writeFile(
      join(dir, REQUEST_LOG_FILE),
      [`e${now - 10} ${now - 5}`, `s${now + 86_400_000}`, `p${now + 10 ** 12}`, `a${now} 999`, ""].join("\n"),
    );
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    log.replace({ requests: [{ sentAt: now - 10, settledAt: now - 5 }], pausedUntil: 0 });
    expect(log.load()).toEqual({ requests: [{ sentAt: now - 10, settledAt: now - 5 }], pausedUntil: 0 });
    // A pause after it is its own, not held up by the one dropped.
    log.paused(now + 30_000);
    log.close();
    expect((await readFile(join(dir, REQUEST_LOG_FILE), "utf8")).split("\n").filter(Boolean)).toEqual([
      `e${now - 10} ${now - 5}`,
      `p${now + 30_000}`,
    ]);
    const again = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    expect(again.load()).toEqual({
      requests: [{ sentAt: now - 10, settledAt: now - 5 }],
      pausedUntil: now + 30_000,
    });
    again.close();
  });

  it("drops what no longer matters and stays small", async () => {
    const dir = await dataDir();
    let now = 0;
    const log = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    for (let i = 0; i < 2_000; i++) {
      now += 2_000;
      log.sent(now);
      log.settled(now, now + 100);
    }
    log.close();
    const lines = (await readFile(join(dir, REQUEST_LOG_FILE), "utf8")).split("\n").filter(Boolean);
    expect(lines.length).toBeLessThan(300);
    const again = RequestLog.open({ dataDir: dir, keepMs: 120_000, now: () => now });
    const { requests } = again.load();
    // Only the last two minutes, the last request included.
    expect(requests.length).toBeLessThanOrEqual(61);
    expect(requests.at(-1)).toEqual({ sentAt: now, settledAt: now + 100 });
    again.close();
  });
});
