import { describe, expect, it } from "vitest";
import { CoalescingWriter } from "../../src/store/coalescing-writer.js";

/** A writer over a counter "memory", with writes that finish only when the test lets them. */
function harness() {
  let memory = 0;
  const written: string[] = [];
  const waiting: Array<{ finish: () => void; fail: (error: Error) => void }> = [];
  let running = 0;
  let maxRunning = 0;
  const writer = new CoalescingWriter(
    () => String(memory),
    (data) =>
      new Promise<void>((resolve, reject) => {
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        waiting.push({
          finish: () => {
            running -= 1;
            written.push(data);
            resolve();
          },
          fail: (error) => {
            running -= 1;
            reject(error);
          },
        });
      }),
  );
  const change = () => {
    memory += 1;
    return writer.requestWrite();
  };
  /** Waits until a write has started, then returns the hooks to end it. */
  const nextWrite = async () => {
    while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const write = waiting.shift();
    if (!write) throw new Error("unreachable");
    return write;
  };
  return { writer, change, nextWrite, written, maxRunning: () => maxRunning };
}

describe("CoalescingWriter", () => {
  it("merges the changes of one turn into one write", async () => {
    const h = harness();
    const done = Array.from({ length: 200 }, () => h.change());
    (await h.nextWrite()).finish();
    await Promise.all(done);
    expect(h.written).toEqual(["200"]);
  });

  it("never overlaps writes, and serves everything asked during a write with one more", async () => {
    const h = harness();
    const first = h.change();
    const firstWrite = await h.nextWrite();
    const during = Array.from({ length: 50 }, () => h.change());
    let duringSettled = false;
    void Promise.all(during).then(() => {
      duringSettled = true;
    });
    firstWrite.finish();
    await first;
    const secondWrite = await h.nextWrite();
    expect(duringSettled).toBe(false);
    secondWrite.finish();
    await Promise.all(during);
    expect(h.written).toEqual(["1", "51"]);
    expect(h.maxRunning()).toBe(1);
  });

  it("resolves a request only after the write carrying it has finished", async () => {
    const h = harness();
    let resolved = false;
    const request = h.change().then(() => {
      resolved = true;
    });
    const write = await h.nextWrite();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(resolved).toBe(false);
    write.finish();
    await request;
    expect(resolved).toBe(true);
  });

  it("rejects the requests of a failed write and keeps serving later ones", async () => {
    const h = harness();
    const failed = h.change();
    (await h.nextWrite()).fail(new Error("disk full"));
    await expect(failed).rejects.toThrow("disk full");
    const later = h.change();
    (await h.nextWrite()).finish();
    await later;
    // The later write carries the change whose own write failed.
    expect(h.written).toEqual(["2"]);
  });

  it("flush writes again after a failed write, since memory is ahead of the file", async () => {
    const h = harness();
    const failed = h.change();
    (await h.nextWrite()).fail(new Error("disk full"));
    await expect(failed).rejects.toThrow("disk full");
    const flushed = h.writer.flush();
    (await h.nextWrite()).finish();
    await flushed;
    expect(h.written).toEqual(["1"]);
    // Nothing unsaved any more: flush has nothing to write.
    await h.writer.flush();
    expect(h.written).toEqual(["1"]);
  });

  it("flush resolves at once when nothing was asked", async () => {
    const h = harness();
    await h.writer.flush();
    expect(h.written).toEqual([]);
  });

  it("flush waits for the queued write, not just the running one", async () => {
    const h = harness();
    void h.change();
    const firstWrite = await h.nextWrite();
    void h.change();
    let settled = false;
    const settledPromise = h.writer.flush().then(() => {
      settled = true;
    });
    firstWrite.finish();
    const secondWrite = await h.nextWrite();
    expect(settled).toBe(false);
    secondWrite.finish();
    await settledPromise;
    expect(h.written).toEqual(["1", "2"]);
  });
});
