import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { BridgeStorage } from "../src/bridge-storage.js";
import { captureLogger, type LogLine, tempDir } from "./store/helpers.js";
import { waitFor } from "./support/wait-for.js";

// The data directory as the bridge opens it (src/bridge-storage.ts). The whole run that waits for
// a directory it cannot use is run-bridge.test.ts's; here, the tries themselves.

/** Closes whatever opened when the test ends, as the app's stop does. */
function closedAtEnd(storage: BridgeStorage): BridgeStorage {
  onTestFinished(async () => {
    await storage.store?.close();
    storage.delivered?.close();
    storage.requests?.close();
    storage.recentDeliveries?.close();
  });
  return storage;
}

/** A data directory under a regular file: no one, root included, can make it until the file goes. */
async function blockedDataDir(): Promise<{ dataDir: string; unblock: () => Promise<void> }> {
  const file = join(await tempDir(), "a-file");
  await writeFile(file, "not a directory\n");
  return { dataDir: join(file, "data"), unblock: () => rm(file) };
}

const saying = (lines: readonly LogLine[], start: string) =>
  lines.filter((line) => line.msg.startsWith(start));

describe("the bridge's storage", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens the store and the logs at the first try; the recent deliveries' only when told how long to keep them", async () => {
    const { logger, lines } = captureLogger();
    const attempts = vi.fn();
    const alone = closedAtEnd(new BridgeStorage({ dataDir: await tempDir(), logger }));
    await alone.open(new AbortController().signal, attempts);
    expect([alone.store, alone.delivered, alone.requests].every(Boolean)).toBe(true);
    expect(alone.recentDeliveries).toBeUndefined();
    expect(attempts).toHaveBeenCalledTimes(1);

    const withHomeAssistant = closedAtEnd(
      new BridgeStorage({ dataDir: await tempDir(), logger, recentDeliveriesKeepMs: 30_000 }),
    );
    await withHomeAssistant.open(new AbortController().signal, attempts);
    expect(withHomeAssistant.recentDeliveries).toBeDefined();
    expect(saying(lines, "cannot use the data directory")).toEqual([]);
  });

  it("tries again every 5 s while the directory refuses, says so once, and once more when it works", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { logger, lines } = captureLogger();
    const { dataDir, unblock } = await blockedDataDir();
    const attempts = vi.fn();
    const storage = closedAtEnd(new BridgeStorage({ dataDir, logger }));
    const opening = storage.open(new AbortController().signal, attempts);

    await waitFor(() => vi.getTimerCount() > 0);
    await vi.advanceTimersByTimeAsync(5_000);
    await waitFor(() => attempts.mock.calls.length === 2 && vi.getTimerCount() > 0);
    const refusals = saying(lines, "cannot use the data directory");
    expect(refusals).toHaveLength(1);
    expect(refusals[0]?.msg).toMatch(
      /nothing is read from the API until it can be written\. Retrying every 5 s\.$/,
    );
    expect(storage.store).toBeUndefined();

    await unblock();
    await vi.advanceTimersByTimeAsync(5_000);
    await opening;
    expect(attempts).toHaveBeenCalledTimes(3);
    expect(storage.store).toBeDefined();
    expect(saying(lines, "the data directory works now")).toEqual([expect.objectContaining({ dataDir })]);
  });

  it("ends its wait at a stop, with nothing open", async () => {
    const { logger, lines } = captureLogger();
    const { dataDir } = await blockedDataDir();
    const stop = new AbortController();
    const storage = closedAtEnd(new BridgeStorage({ dataDir, logger }));
    const opening = storage.open(stop.signal, () => undefined);
    await waitFor(() => saying(lines, "cannot use the data directory").length > 0);

    stop.abort();
    await opening;
    expect([storage.store, storage.delivered, storage.requests]).toEqual([undefined, undefined, undefined]);
  });
});
