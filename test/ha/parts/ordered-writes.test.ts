import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { OrderedWrites } from "../../../src/ha/parts/ordered-writes.js";
import { createLogger } from "../../../src/log/logger.js";

describe("a part's writes", () => {
  it("run one after another, a failure logged and the next one run", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const logger = createLogger({ level: "debug", destination, json: true });
    const writes = new OrderedWrites(logger, "the latest facts");
    const done: number[] = [];
    const slow = (n: number, ms: number) => () =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          done.push(n);
          resolve();
        }, ms),
      );
    writes.add(slow(1, 30));
    writes.add(() => Promise.reject(new Error("Home Assistant away")));
    writes.add(slow(3, 1));
    await writes.settled();
    expect(done).toEqual([1, 3]);
    expect(lines.join("")).toContain("the latest facts could not be written yet");
    expect(lines.join("")).toContain("Home Assistant away");
  });
});
