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

const open = (dir: string, perChild?: number) =>
  DeliveredLog.open({ dataDir: dir, logger: new LogCollector().logger(), ...(perChild ? { perChild } : {}) });

describe("DeliveredLog", () => {
  it("keeps claims in doubt until acknowledged, across a reopen, and forgets released ones", async () => {
    const dir = await dataDir();
    const log = open(dir);
    log.claim("c1", "e1");
    log.acknowledge("c1", "e1", "2026-11-23T10:00:00.000001+00:00");
    log.claim("c1", "e2");
    log.claim("c1", "e3");
    log.release("c1", "e3");
    log.claim("c2", "e1");
    log.close();
    const again = open(dir);
    expect([
      again.stateOf("c1", "e1"),
      again.stateOf("c1", "e2"),
      again.stateOf("c1", "e3"),
      again.stateOf("c2", "e1"),
      again.stateOf("c2", "e2"),
    ]).toEqual(["acknowledged", "in_doubt", undefined, "in_doubt", undefined]);
    expect(again.receiptOf("c1")).toBe("2026-11-23T10:00:00.000001+00:00");
    expect(again.receiptOf("c2")).toBeUndefined();
    again.close();
  });

  it("keeps the last receipt of each child through a rewrite", async () => {
    const dir = await dataDir();
    const log = open(dir, 5);
    for (let i = 0; i < 100; i++) {
      log.claim("c1", `e${i}`);
      log.acknowledge("c1", `e${i}`, `stamp-${i}`);
    }
    log.close();
    const text = await readFile(join(dir, DELIVERED_LOG_FILE), "utf8");
    expect(text.startsWith("#delivered-events v2\n")).toBe(true);
    const again = open(dir, 5);
    expect(again.receiptOf("c1")).toBe("stamp-99");
    expect(again.stateOf("c1", "e99")).toBe("acknowledged");
    again.close();
  });

  it("reads a log of the first version, where every line meant delivered", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, DELIVERED_LOG_FILE), "+c1 e1\n+c1 e2\n-c1 e2\n");
    const log = open(dir);
    expect([log.stateOf("c1", "e1"), log.stateOf("c1", "e2")]).toEqual(["acknowledged", undefined]);
    log.close();
    // Rewritten in the new format on open: the old meaning is kept.
    const again = open(dir);
    expect(again.stateOf("c1", "e1")).toBe("acknowledged");
    again.close();
  });

  it("remembers a bounded number of facts per child and keeps its file bounded", async () => {
    const dir = await dataDir();
    const log = open(dir, 50);
    for (let i = 0; i < 1_000; i++) {
      log.claim("c1", `e${i}`);
      log.acknowledge("c1", `e${i}`);
    }
    expect(log.stateOf("c1", "e999")).toBe("acknowledged");
    expect(log.stateOf("c1", "e950")).toBe("acknowledged");
    expect(log.stateOf("c1", "e949")).toBeUndefined();
    log.close();
    const lines = (await readFile(join(dir, DELIVERED_LOG_FILE), "utf8")).split("\n").filter(Boolean);
    // What it keeps (50 and a header), and at most four times that appended before the next rewrite.
    expect(lines.length).toBeLessThanOrEqual(5 * 50 + 1);
    const reopened = open(dir, 50);
    expect(reopened.stateOf("c1", "e999")).toBe("acknowledged");
    expect(reopened.stateOf("c1", "e949")).toBeUndefined();
    reopened.close();
  });

  it("skips a torn last line with a warning", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, DELIVERED_LOG_FILE), "#delivered-events v2\n=c1 e1\n");
    await appendFile(join(dir, DELIVERED_LOG_FILE), "+c1 e2 hal");
    const logs = new LogCollector();
    const log = DeliveredLog.open({ dataDir: dir, logger: logs.logger() });
    expect(log.stateOf("c1", "e1")).toBe("acknowledged");
    expect(log.stateOf("c1", "e2")).toBeUndefined();
    expect(logs.matching(/unreadable lines/)).toHaveLength(1);
    log.close();
  });

  it("refuses a data directory it cannot write with a typed error", async () => {
    const dir = await dataDir();
    await writeFile(join(dir, "file"), "not a directory");
    expect(() => open(join(dir, "file", "data"))).toThrow(StoreOpenError);
  });
});
