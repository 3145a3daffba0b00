import { mkdtemp, readFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../src/app.js";
import { optionsSchema } from "../../src/config/options-schema.js";
import { HEARTBEAT_STALE_MS } from "../../src/health/heartbeat.js";
import { ApiSimulator } from "../../src/simulator/index.js";
import { LogCollector } from "../support/engine-rig.js";
import { VirtualTime } from "../support/virtual-time.js";

// The add-on's health check fails once the heartbeat is three minutes old, and the Supervisor then
// restarts the add-on. While Home Assistant boots (minutes on a Raspberry Pi) the bridge waits for
// it, and waiting is healthy: the heartbeat says "alive and waiting" all along (issue 53: the
// household lease waited for the first connection before anything touched it, 210 s old in a probe).
// Five minutes of a Home Assistant that refuses every connection, on the virtual clock.

const MINUTE = 60_000;
let time: VirtualTime | undefined;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  time?.uninstall();
  time = undefined;
});

/** Waits in real time (the timers are virtual) until `done`, for at most 20 s. */
async function untilReal(done: () => boolean, what: string): Promise<void> {
  const since = performance.now();
  while (!done()) {
    if (performance.now() - since > 20_000) throw new Error(`never saw ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

describe("the heartbeat while Home Assistant is away at start", () => {
  it("stays fresh for five minutes, beat by beat, while nothing can be published", async () => {
    const sim = await ApiSimulator.start({ activity: false });
    cleanups.push(() => sim.stop());
    const dir = await mkdtemp(join(tmpdir(), "rf-waiting-heartbeat-"));
    const heartbeatFile = join(dir, "heartbeat");
    // A Home Assistant that boots: every connection cut at once (counted, to know the bridge waits).
    let attempts = 0;
    const booting = createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => booting.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => new Promise((resolve) => booting.close(resolve)));
    const haUrl = `http://127.0.0.1:${(booting.address() as AddressInfo).port}`;
    time = VirtualTime.install("2026-11-29T10:00:00Z");
    const logs = new LogCollector();
    const app = new App({
      config: {
        options: optionsSchema.parse({
          api_token: sim.tokens.household,
          api_base_url: sim.url,
          publish: "rest",
        }),
        dataDir: join(dir, "data"),
        homeAssistant: { kind: "standalone", url: haUrl, token: "ha-token-of-a-test" },
        broker: { kind: "none" },
        timeZone: undefined,
        mode: "standalone",
        heartbeatFile,
      },
      logger: logs.logger(),
    });
    const starting = app.start().catch((error: unknown) => error);
    cleanups.push(async () => {
      await app.stop();
      await starting;
    });
    // The store's files and the WebSocket are real I/O the virtual clock does not see: time moves
    // once the bridge has met the refusal, not while it still opens its store.
    await untilReal(() => attempts > 0, "a connection to Home Assistant");
    const ages: number[] = [];
    for (let minute = 0; minute < 5; minute++) {
      await time.advance(MINUTE);
      const beat = Date.parse((await readFile(heartbeatFile, "utf8")).trim());
      ages.push(Date.now() - beat);
    }
    // Never stale, and never the start's only beat: written again while waiting.
    for (const age of ages) expect(age).toBeLessThan(HEARTBEAT_STALE_MS);
    expect(Math.max(...ages)).toBeLessThanOrEqual(MINUTE);
    // Nothing was read from the API meanwhile: the bridge waits for Home Assistant first.
    expect(sim.requests).toEqual([]);
  });
});
