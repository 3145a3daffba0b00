import { afterEach, describe, expect, it } from "vitest";
import { ReadNowRequests } from "../../src/engine/read-now.js";
import { busiestMinute } from "../support/busiest-minute.js";
import { EngineRig } from "../support/engine-rig.js";

// A child's Read now button, as the engine takes it: her day and journal read next, at most once a
// minute, never past the API's limit (the button itself, through Home Assistant, in buttons.test.ts).

const MINUTE = 60_000;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe("the once-a-minute rule of Read now", () => {
  it("reads at the first press, says the second within the minute once, then is quiet", () => {
    const requests = new ReadNowRequests();
    expect(requests.ask("lea", 0)).toBe("read");
    expect(requests.ask("noah", 1_000)).toBe("read");
    expect(requests.ask("lea", 10_000)).toBe("said");
    expect(requests.ask("lea", 20_000)).toBe("quiet");
    expect(requests.ask("lea", 59_999)).toBe("quiet");
    expect(requests.ask("lea", 60_000)).toBe("read");
    expect(requests.ask("lea", 61_000)).toBe("said");
  });
});

describe("Read now in the engine", () => {
  const served = (rig: EngineRig, childId: string, what: "today" | "events") =>
    rig.served(new RegExp(`^/children/${childId}/${what}`)).map((request) => request.at);

  it("reads the child's day and journal within seconds, not at her next routine reading", async () => {
    rig = await EngineRig.start({
      start: "2026-11-21T08:00:00Z",
      engine: { eventsIntervalMs: 5 * MINUTE, todayIntervalMs: 10 * MINUTE, jitter: 0 },
    });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(MINUTE);
    const before = {
      today: served(rig, ordinary.id, "today").length,
      events: served(rig, ordinary.id, "events").length,
    };
    const pressedAt = Date.now();
    rig.engine.readNow(ordinary.id);
    await rig.time.advance(5_000);
    const today = served(rig, ordinary.id, "today");
    const events = served(rig, ordinary.id, "events");
    expect(today).toHaveLength(before.today + 1);
    expect(events).toHaveLength(before.events + 1);
    expect((today.at(-1) as number) - pressedAt).toBeLessThan(3_000);
    expect(rig.logs.matching(/^Read now: the child's day and journal are read next$/)).toHaveLength(1);
  });

  it("reads at most once a minute per child, says an extra press once, and never passes the API's limit", async () => {
    rig = await EngineRig.start({ start: "2026-11-21T08:00:00Z", engine: { jitter: 0 } });
    const children = Object.values(rig.sim.children).map((child) => child.id);
    await rig.time.advance(MINUTE);
    const pressedAt = Date.now();
    // Every child's button, pressed again and again for two minutes.
    for (let second = 0; second < 120; second++) {
      for (const id of children) rig.engine.readNow(id);
      await rig.time.advance(1_000);
    }
    const within = (times: number[]) => times.filter((at) => at >= pressedAt);
    for (const id of children) {
      // The routine (every 60 s) and the presses: at most one more each minute than the routine's.
      expect(within(served(rig, id, "today")).length).toBeLessThanOrEqual(2 * 2 + 1);
    }
    // Pressed twice a minute is said once a minute per child, not once a press.
    const said = rig.logs.matching(/pressed again within a minute/);
    expect(said.length).toBeLessThanOrEqual(children.length * 2);
    expect(said.length).toBeGreaterThanOrEqual(children.length);
    expect(busiestMinute(rig.sim.requests.map((request) => request.at))).toBeLessThanOrEqual(
      rig.sim.rateLimitPerMinute,
    );
    expect(rig.sim.requests.filter((request) => request.status === 429)).toHaveLength(0);
  });

  it("says a press for a child it does not follow, and reads nothing for it", async () => {
    rig = await EngineRig.start({ start: "2026-11-21T08:00:00Z" });
    await rig.time.advance(10_000);
    rig.engine.readNow("no-such-child");
    await rig.time.advance(5_000);
    expect(rig.logs.matching(/a child the bridge does not follow/)).toHaveLength(1);
    expect(rig.sim.requests.filter((request) => request.path.includes("no-such-child"))).toHaveLength(0);
  });
});
