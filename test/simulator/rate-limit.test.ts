import { afterEach, describe, expect, it } from "vitest";
import { type ApiSimulator, ManualClock, type SimulatorOptions } from "../../src/simulator/index.js";
import { rawGet, startQuiet } from "./helpers.js";

const started: ApiSimulator[] = [];

async function open(options: SimulatorOptions = {}) {
  const result = await startQuiet(options);
  started.push(result.sim);
  return result;
}

afterEach(async () => {
  for (const sim of started.splice(0)) await sim.stop();
});

async function statuses(sim: ApiSimulator, n: number, token = sim.tokens.household, base = sim.url) {
  const result: number[] = [];
  for (let i = 0; i < n; i++) result.push((await rawGet(`${base}/children`, token)).status);
  return result;
}

describe("rate limit, sliding window (default)", () => {
  it("refuses the 31st request of any 60 s, and lets one through as each request leaves the window", async () => {
    const { sim, clock } = await open();
    expect(await statuses(sim, 30)).toEqual(Array(30).fill(200));
    clock.advance(30_000);
    expect(await statuses(sim, 3)).toEqual([429, 429, 429]);
    clock.advance(29_999);
    expect(await statuses(sim, 1)).toEqual([429]);
    clock.advance(1);
    // 60 s after the first 30: the window is free again, the refused requests did not count.
    expect(await statuses(sim, 31)).toEqual([...Array(30).fill(200), 429]);
  });

  it("counts per token, across both base paths and every endpoint", async () => {
    const { sim } = await open();
    const child = sim.children.ordinary.id;
    for (let i = 0; i < 10; i++) {
      expect((await rawGet(`${sim.url}/children/${child}/today`, sim.tokens.household)).status).toBe(200);
      expect((await rawGet(`${sim.legacyUrl}/children/${child}/events`, sim.tokens.household)).status).toBe(
        200,
      );
      expect((await rawGet(`${sim.legacyUrl}/children`, sim.tokens.household)).status).toBe(200);
    }
    expect(await statuses(sim, 1, sim.tokens.household, sim.legacyUrl)).toEqual([429]);
    expect(await statuses(sim, 1)).toEqual([429]);
    // The other household's token has its own budget.
    expect(await statuses(sim, 30, sim.tokens.other)).toEqual(Array(30).fill(200));
  });

  it("logs each request with its simulated time and the token's label, never the token", async () => {
    const { sim, clock } = await open();
    await statuses(sim, 31);
    clock.advance(5_000);
    await rawGet(`${sim.url}/children`);
    await rawGet(`${sim.url}/children`, `rf_api_${"f".repeat(40)}`);
    const start = Date.parse("2026-01-15T09:00:00.000Z");
    const perMinute = sim.requests.filter((r) => r.token === "household" && r.at - start < 60_000);
    expect(perMinute.filter((r) => r.status === 200)).toHaveLength(30);
    expect(perMinute.filter((r) => r.status === 429)).toHaveLength(1);
    expect(sim.requests.slice(-2)).toEqual([
      { at: start + 5_000, token: "missing", base: "current", method: "GET", path: "/children", status: 401 },
      { at: start + 5_000, token: "unknown", base: "current", method: "GET", path: "/children", status: 401 },
    ]);
    const log = JSON.stringify(sim.requests);
    expect(log).not.toContain(sim.tokens.household);
    expect(log).not.toContain("rf_api_");
  });
});

describe("rate limit, fixed window", () => {
  it("starts a new budget at each clock minute", async () => {
    const { sim, clock } = await open({
      clock: new ManualClock("2026-01-15T09:00:59.000Z"),
      rateWindow: "fixed",
    });
    expect(await statuses(sim, 31)).toEqual([...Array(30).fill(200), 429]);
    clock.advance(1_000);
    expect(await statuses(sim, 31)).toEqual([...Array(30).fill(200), 429]);
  });
});

describe("Retry-After", () => {
  it("is absent unless asked for", async () => {
    const { sim } = await open({ rateLimitPerMinute: 1 });
    await statuses(sim, 1);
    const refused = await rawGet(`${sim.url}/children`, sim.tokens.household);
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toBeUndefined();
    expect(refused.json).toEqual({ error: expect.any(String) });
  });

  it("gives the time until a request leaves the window when set to `window`", async () => {
    const { sim, clock } = await open({ retryAfterSeconds: "window" });
    await statuses(sim, 30);
    clock.advance(20_500);
    const refused = await rawGet(`${sim.url}/children`, sim.tokens.household);
    expect(refused.headers["retry-after"]).toBe("40");
  });
});
