import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppendLog } from "../../src/store/append-log.js";
import { StoreOpenError, StoreWriteError } from "../../src/store/errors.js";
import { captureLogger, dirAtPathLimit, tempDir } from "./helpers.js";

// The file under the delivered-events, request and recent-deliveries logs: a write the file system
// refuses is a typed error naming the file (the engine's failure policy waits on it as a failing
// data directory), never a crash, and the log carries on once the directory is back.

/** What `action` threw. */
function thrownBy(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("AppendLog", () => {
  it("refuses an append once closed, with a StoreWriteError naming the file", async () => {
    const path = join(await tempDir(), "log.jsonl");
    const { log } = AppendLog.open(path, "test log");
    log.append("one");
    log.close();

    const refused = thrownBy(() => log.append("two"));
    expect(refused).toBeInstanceOf(StoreWriteError);
    expect(refused).toMatchObject({ message: expect.stringMatching(/^cannot append to the log: /), path });
    expect(await readFile(path, "utf8")).toBe("one\n");
  });

  it("fails a rewrite while its directory is gone with a StoreWriteError, and rewrites once it is back", async () => {
    const dir = join(await tempDir(), "data");
    const path = join(dir, "log.jsonl");
    const { log } = AppendLog.open(path, "test log");
    log.append("old");
    await rm(dir, { recursive: true });

    const refused = thrownBy(() => log.rewrite(["kept"]));
    expect(refused).toBeInstanceOf(StoreWriteError);
    expect(refused).toMatchObject({
      message: expect.stringMatching(/^cannot rewrite the log: /),
      path,
      code: "ENOENT",
    });

    await mkdir(dir);
    log.rewrite(["kept"]);
    log.append("new");
    log.close();
    expect(await readFile(path, "utf8")).toBe("kept\nnew\n");
    expect(log.appended).toBe(1);
  });

  it("refuses to open a log its owner cannot rewrite, naming the log, the file and the OS code", async () => {
    // The log's own path is within the kernel's limit, the temporary file of its rewrite is not.
    const dir = await dirAtPathLimit("log.jsonl");
    const path = join(dir, "log.jsonl");
    const { logger } = captureLogger();
    const refused = thrownBy(() =>
      AppendLog.openFor(path, "test log", logger, (log) => ({
        owner: log,
        replay: () => 0,
        rewrite: () => log.rewrite(["kept"]),
      })),
    );
    expect(refused).toBeInstanceOf(StoreOpenError);
    expect(refused).toMatchObject({
      message: `the test log cannot be written: ${path} (ENAMETOOLONG)`,
      path,
      code: "ENAMETOOLONG",
    });
  });
});
