import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

import { MAX_BODY_BYTES, MAX_PAUSE_MS, REQUEST_DEADLINE_MS } from "../../src/api/limits.js";
import { REQUEST_LOG_FILE } from "../../src/store/request-log.js";
import { MAX_TIMER_MS } from "../../src/time/sleep.js";
import { EngineRig, type LogLine } from "../support/engine-rig.js";

// A hostile API at each edge the bridge meets it (issue 41, points 1, 2, 3 and 7): every one costs
// a read, a line in the log, or a bounded pause, never the loop, the memory or years of silence.

const MINUTE = 60_000;
const START = "2026-11-21T09:00:00Z";
/** What the loopback connection's buffers can take before a dropped connection stops the writer. */
const LOOPBACK_BUFFERS = 64 * 1024 * 1024;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** The virtual instant a log line was written at. */
function timeOf(line: LogLine | undefined): number {
  return Number(line?.time);
}

/**
 * Every delay armed on the global setTimeout (the fake one, which Node's own overflow warning
 * never reaches: it fires an overlong delay after 1 ms, as Node does), and Node's warnings.
 */
function watchTimers() {
  const delays: number[] = [];
  const warnings: Error[] = [];
  const faked = globalThis.setTimeout;
  const watching = ((handler: () => void, ms?: number, ...rest: unknown[]) => {
    delays.push(Number(ms ?? 0));
    return faked(handler, ms, ...rest);
  }) as typeof setTimeout;
  globalThis.setTimeout = watching;
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on("warning", onWarning);
  return {
    overlong: () => delays.filter((ms) => ms > MAX_TIMER_MS),
    overflowWarnings: () => warnings.filter((w) => w.name === "TimeoutOverflowWarning"),
    stop: () => {
      if (globalThis.setTimeout === watching) globalThis.setTimeout = faked;
      process.off("warning", onWarning);
    },
  };
}

describe("the API's edges (issue 41)", () => {
  it("(1) fails a body that never ends at the deadline, and the other children's reads go on", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const { ordinary, custody, unsynced } = r.sim.children;
    await r.time.advance(2 * MINUTE);
    // The trickle holds its request in flight: virtual time must move under it.
    r.time.stuckMs = 50;
    r.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    // A byte every 5 s, for ever: undici's own body timeout (the gap between chunks) is never met.
    r.sim.failNext(1, { kind: "trickle", everyMs: 5_000 }, `/children/${ordinary.id}/events`);
    await r.time.advance(4 * MINUTE);

    const trickled = r.served().find((q) => q.fault === "trickle");
    if (!trickled) throw new Error("the trickle was never served");
    expect(trickled.bodyBytes).toBeGreaterThanOrEqual(3);
    // One line for the spell, when the deadline passed, and one when the API answered again.
    const failing = r.logs.matching(/the API cannot be read/);
    expect(failing).toHaveLength(1);
    expect(failing[0]?.error).toMatch(/not complete within 20 s/);
    // The deadline runs from when the request left; the simulator stamps its arrival, which
    // virtual time, free to move under a request in flight here, may put a step later.
    expect(timeOf(failing[0]) - trickled.at).toBeGreaterThanOrEqual(REQUEST_DEADLINE_MS - 1_000);
    expect(timeOf(failing[0]) - trickled.at).toBeLessThanOrEqual(REQUEST_DEADLINE_MS + 1_000);
    expect(r.logs.matching(/the API answers again/)).toHaveLength(1);
    // Not tried again within its job: the child's next read is its next poll.
    const ordinaryReads = r.served(new RegExp(`^/children/${ordinary.id}/events`));
    const soonAfter = ordinaryReads.filter((q) => q.at > trickled.at && q.at <= timeOf(failing[0]) + 5_000);
    expect(soonAfter).toEqual([]);
    // The others went on as soon as it failed, and kept their pace through the whole scene.
    const others = r.served(new RegExp(`^/children/(${custody.id}|${unsynced.id})/`));
    const nextOther = others.find((q) => q.at > trickled.at);
    expect((nextOther?.at ?? Number.POSITIVE_INFINITY) - trickled.at).toBeLessThanOrEqual(
      REQUEST_DEADLINE_MS + 1_000,
    );
    for (const child of [custody, unsynced]) {
      const reads = r
        .served(new RegExp(`^/children/${child.id}/events`))
        .map((q) => q.at)
        .filter((at) => at >= trickled.at - MINUTE);
      const gaps = reads.slice(1).map((at, i) => at - (reads[i] as number));
      expect(Math.max(...gaps), child.firstName).toBeLessThanOrEqual(30_000 + REQUEST_DEADLINE_MS + 5_000);
    }
    // And the fact it held back came through afterwards, once.
    expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
    expect(r.engine.status().state).toBe("ok");
  });

  it("(2) holds a Retry-After of years, and a stored pause out of range, to the longest pause", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const timers = watchTimers();
    try {
      await r.time.advance(2 * MINUTE);
      for (const retryAfter of ["99999999", "Fri, 01 Jan 2100 00:00:00 GMT"]) {
        const servedBefore = r.served().length;
        r.sim.failNext(1, { kind: "status", status: 429, headers: { "retry-after": retryAfter } });
        await r.time.advance(MAX_PAUSE_MS + 2 * MINUTE);
        const served = r.served().slice(servedBefore);
        const limited = served.find((q) => q.status === 429);
        if (!limited) throw new Error("the 429 was never served");
        // Paused the longest pause, not a moment less, nor years; then polling again.
        const next = served.find((q) => q.at > limited.at);
        expect((next?.at ?? Number.POSITIVE_INFINITY) - limited.at).toBeGreaterThanOrEqual(MAX_PAUSE_MS);
        expect((next?.at ?? Number.POSITIVE_INFINITY) - limited.at).toBeLessThanOrEqual(
          MAX_PAUSE_MS + 30_000,
        );
        expect(served.filter((q) => q.at > limited.at + MAX_PAUSE_MS).length).toBeGreaterThan(3);
      }
      // Said once each, with what the API asked.
      const held = r.logs.matching(/asked for a pause longer than the bridge ever takes/);
      expect(held.map((l) => l.retryAfter)).toEqual(["99999999", "Fri, 01 Jan 2100 00:00:00 GMT"]);
      expect(r.engine.status().state).toBe("ok");

      // A damaged request log: a pause of three years, one too long to read, a request sent
      // tomorrow, a share the budget never makes. Each kind ignored with a line; polling as usual.
      await r.restart(() => {
        const now = Date.now();
        writeFileSync(
          join(r.dataDir, REQUEST_LOG_FILE),
          [
            `p${now + 3 * 365 * 24 * 60 * MINUTE}`,
            `p${"9".repeat(400)}`,
            `s${now + 24 * 60 * MINUTE}`,
            `a${now - MINUTE} 999 1800000`,
            "",
          ].join("\n"),
        );
      });
      const restartedAt = Date.now();
      await r.time.advance(2 * MINUTE);
      expect(r.logs.matching(/^ignoring the stored pause of API requests/)).toHaveLength(1);
      expect(r.logs.matching(/^ignoring stored API requests/)).toHaveLength(1);
      expect(r.logs.matching(/^ignoring the stored share of the API token/)).toHaveLength(1);
      const afterRestart = r.served().filter((q) => q.at >= restartedAt);
      expect(afterRestart[0]?.at).toBe(restartedAt);
      expect(afterRestart.length).toBeGreaterThan(5);
      expect(r.engine.status()).toMatchObject({ state: "ok", budgetPerMinute: 28 });
      // The file no longer holds them: the next start has nothing to say.
      await r.restart();
      await r.time.advance(MINUTE);
      expect(r.logs.matching(/^ignoring (the )?stored/)).toHaveLength(3);

      // No timer was armed beyond what Node's timers hold, so none overflowed.
      expect(timers.overlong()).toEqual([]);
      expect(timers.overflowWarnings()).toEqual([]);
    } finally {
      timers.stop();
    }
  });

  it("(3) follows the readable children of a list with one unreadable entry, and warns once", async () => {
    const unreadable = { id: "5b1e0000-0000-4000-8000-00000000abcd", firstName: null };
    rig = await EngineRig.start({
      start: START,
      prepare: (sim) => {
        const { ordinary, custody, unsynced } = sim.children;
        sim.failNext(4, { kind: "body", body: [ordinary, unreadable, custody, unsynced] }, "/children");
        return { discoveryIntervalMs: 2 * MINUTE };
      },
    });
    const r = rig;
    const good = [r.sim.children.ordinary, r.sim.children.custody, r.sim.children.unsynced];
    // From the first listing on, the readable ones are followed and read.
    await r.time.advance(MINUTE);
    expect(r.sink.children.map((c) => c.id)).toEqual(good.map((c) => c.id));
    for (const child of good)
      expect(r.served(new RegExp(`^/children/${child.id}/events`)).length).toBeGreaterThan(0);
    await r.time.advance(8 * MINUTE);
    expect(r.served(/^\/children$/).filter((q) => q.fault === "body").length).toBe(4);
    // One warning for the entry, however often it is listed; never an unreadable answer.
    const warned = r.logs.matching(/unreadable child/);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ id: unreadable.id, index: 1 });
    expect(r.logs.matching(/unreadable API answer/)).toEqual([]);
    expect(r.served().filter((q) => q.path.includes(unreadable.id))).toEqual([]);
    expect(r.engine.status().state).toBe("ok");
  });

  it("(7) fails a huge answer as one read, without reading it whole, with or without a length", async () => {
    rig = await EngineRig.start({ start: START });
    const r = rig;
    const { ordinary } = r.sim.children;
    await r.time.advance(2 * MINUTE);
    const events = `/children/${ordinary.id}/events`;
    for (const contentLength of [false, true]) {
      const spells = r.logs.matching(/the API cannot be read/).length;
      r.sim.addEvent(ordinary.id, { type: "cheer_sent" });
      // 250 MB, as the probe sent: streamed by the simulator only as fast as the bridge reads it.
      r.sim.failNext(1, { kind: "huge", bytes: 250 * 1000 * 1000, contentLength }, events);
      await r.time.advance(2 * MINUTE);
      const huge = r.served().filter((q) => q.fault === "huge");
      expect(huge).toHaveLength(contentLength ? 2 : 1);
      // The bridge dropped the connection near the cap: the simulator never got far into the body.
      expect(huge.at(-1)?.bodyBytes ?? 0).toBeLessThan(MAX_BODY_BYTES + LOOPBACK_BUFFERS);
      const failing = r.logs.matching(/the API cannot be read/).slice(spells);
      expect(failing).toHaveLength(1);
      expect(failing[0]?.error).toMatch(/larger than 2 MiB/);
      // Not tried again within its job.
      const hugeAt = huge.at(-1)?.at ?? 0;
      expect(
        r.served(new RegExp(`^${events}`)).filter((q) => q.at > hugeAt && q.at <= hugeAt + 5_000),
      ).toEqual([]);
      expect(r.sink.eventIdsOf(ordinary.id)).toEqual(r.sim.journal(ordinary.id).map((e) => e.id));
    }
    expect(r.logs.matching(/the API answers again/)).toHaveLength(2);
    expect(r.engine.status().state).toBe("ok");
  });
});
