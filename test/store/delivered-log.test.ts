import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DELIVERED_LOG_FILE, DeliveredLog } from "../../src/store/delivered-log.js";
import { StoreOpenError } from "../../src/store/errors.js";
import { LogCollector } from "../support/engine-rig.js";

async function dataDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "rf-delivered-"));
}

describe("DeliveredLog", () => {
  it("keeps claims across a reopen, and forgets released ones", async () => {
    const dir = await dataDir();
    const logs = new LogCollector();
    const log = DeliveredLog.open({ dataDir: dir, logger: logs.logger() });
    log.claim("c1", "e1");
    log.claim("c1", "e2");
    log.claim("c2", "e1");
    log.release("c1", "e2");
    log.close();
    const again = DeliveredLog.open({ dataDir: dir, logger: logs.logger() });
    expect([
      again.has("c1", "e1"),
      again.has("c1", "e2"),
      again.has("c2", "e1"),
      again.has("c2", "e2"),
    ]).toEqual([true, false, true, false]);
    again.close();
  });

  it("remembers a bounded number of ids per child and keeps its file bounded", async () => {
    const dir = await dataDir();
    const log = DeliveredLog.open({ dataDir: dir, logger: new LogCollector().logger(), perChild: 50 });
    for (let i = 0; i < 1_000; i++) log.claim("c1", `e${i}`);
    expect(log.has("c1", "e999")).toBe(true);
    expect(log.has("c1", "e950")).toBe(true);
    expect(log.has("c1", "e949")).toBe(false);
    log.close();
    const lines = (await readFile(join(dir, DELIVERED_LOG_FILE), "utf8")).split("\n").filter(Boolean);
    expect(lines.length).toBeLessThanOrEqual(4 * 50 + 1);
    const reopened = DeliveredLog.open({ dataDir: dir, logger: new LogCollector().logger(), perChild: 50 });
    expect(reopened.has("c1", "e999")).toBe(true);
    expect(reopened.has("c1", "e949")).toBe(false);
    reopened.close();
  });

  it("skips a torn last line with a warning", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, DELIVERED_LOG_FILE), "+c1 e1\n");
    await appendFile(join(dir, DELIVERED_LOG_FILE), "+c1 e2 half");
    const logs = new LogCollector();
    const log = DeliveredLog.open({ dataDir: dir, logger: logs.logger() });
    expect(log.has("c1", "e1")).toBe(true);
    expect(logs.matching(/unreadable lines/)).toHaveLength(1);
    log.close();
  });

  it("refuses a data directory it cannot write with a typed error", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, "file"), "not a directory");
    expect(() =>
      DeliveredLog.open({ dataDir: join(dir, "file", "data"), logger: new LogCollector().logger() }),
    ).toThrow(StoreOpenError);
  });
});
