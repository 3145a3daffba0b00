import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forgetHomeAssistant } from "../../src/store/forget-home-assistant.js";
import { openStore } from "../../src/store/open-store.js";
import { RECENT_DELIVERY_LOG_FILE } from "../../src/store/recent-delivery-log.js";
import { LogCollector } from "../support/engine-rig.js";

// After the removal step: the data directory forgets what it knew of Home Assistant, and keeps the
// journal's cursors (a reinstall with the folder kept, in removal.test.ts against a real one).

describe("forgetting Home Assistant after the removal", () => {
  it("drops the facts answered lately and what was offered to Assist, and keeps the cursors", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), "rf-forget-")), "data");
    const logger = new LogCollector().logger();
    const store = await openStore({ dataDir, logger });
    await store.set("assist", { exposed: ["sensor.reward_facts_lea_points"], aliases: {} });
    await store.set("cursor:lea", "2026-11-29T08:00:00Z|abc");
    await store.close();
    await writeFile(join(dataDir, RECENT_DELIVERY_LOG_FILE), '{"child":"lea"}\n');

    await forgetHomeAssistant(dataDir, logger);

    expect(await readdir(dataDir)).not.toContain(RECENT_DELIVERY_LOG_FILE);
    const after = await openStore({ dataDir, logger });
    expect(await after.get("assist")).toBeUndefined();
    expect(await after.get("cursor:lea")).toBe("2026-11-29T08:00:00Z|abc");
    await after.close();
  });

  it("leaves alone a data directory that does not exist (it makes none)", async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), "rf-forget-")), "never");
    await forgetHomeAssistant(dataDir, new LogCollector().logger());
    expect(await readdir(join(dataDir, ".."))).toEqual([]);
  });
});
