import { request } from "undici";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiSimulator } from "../../src/simulator/index.js";
import { rawGet, startQuiet, untilIo } from "./helpers.js";

let sim: ApiSimulator;

beforeEach(async () => {
  ({ sim } = await startQuiet());
});

afterEach(async () => {
  vi.useRealTimers();
  await sim.stop();
});

describe("the HTTP surface", () => {
  it("serves the same API on the current and the legacy base path", async () => {
    const child = sim.children.ordinary.id;
    sim.addEvent(child, { type: "cheer_sent", cheer: "super" });
    for (const path of ["/children", `/children/${child}/today`, `/children/${child}/events`]) {
      const current = await rawGet(`${sim.url}${path}`, sim.tokens.household);
      const legacy = await rawGet(`${sim.legacyUrl}${path}`, sim.tokens.household);
      expect(current.status).toBe(200);
      expect(legacy.json).toEqual(current.json);
    }
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(sim.legacyUrl).toBe(sim.url.replace("/api/v1", "/v1"));
  });

  it.each(["/children/", "/children/x/today/", "/children/x/history", "/children/x", "/"])(
    "answers 404 with an error body for %s",
    async (path) => {
      const answer = await rawGet(`${sim.url}${path}`, sim.tokens.household);
      expect(answer.status).toBe(404);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(answer.json).toEqual({ error: expect.any(String) });
    },
  );

  it("answers 404 outside both base paths", async () => {
    const origin = new URL(sim.url).origin;
    for (const path of ["/children", "/api/v2/children", "/api/v1", "/favicon.ico"]) {
      expect((await rawGet(`${origin}${path}`, sim.tokens.household)).status).toBe(404);
    }
  });

  it("serves GET only", async () => {
    const response = await request(`${sim.url}/children`, {
      method: "POST",
      headers: { authorization: `Bearer ${sim.tokens.household}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(response.statusCode).toBe(405);
    expect(await response.body.json()).toEqual({ error: expect.any(String) });
  });

  it("never echoes a token in an error body", async () => {
    const stranger = `rf_api_${"a1".repeat(20)}`;
    const answers = [
      await rawGet(`${sim.url}/children`, stranger),
      await rawGet(`${sim.url}/children/${sim.tokens.household}/today`, sim.tokens.household),
      await rawGet(
        `${sim.url}/children/${sim.children.ordinary.id}/events?since=${sim.tokens.other}`,
        sim.tokens.household,
      ),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 403, 400]);
    for (const answer of answers) {
      expect(answer.text).not.toContain("rf_api_");
      expect(answer.contentType).toMatch(/^application\/json/);
    }
  });

  it("reads the token only from an Authorization Bearer header", async () => {
    const viaQuery = await rawGet(`${sim.url}/children?token=${sim.tokens.household}`);
    expect(viaQuery.status).toBe(401);
    const basic = await request(`${sim.url}/children`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${sim.tokens.household}`).toString("base64")}` },
    });
    await basic.body.dump();
    expect(basic.statusCode).toBe(401);
  });
});

describe("the household, changed by the parents", () => {
  it("lists a child renamed in the app under its new name, with the same id", async () => {
    const { ordinary } = sim.children;
    sim.renameChild(ordinary.id, "Léonie");
    const listed = (await rawGet(`${sim.url}/children`, sim.tokens.household)).json;
    expect(listed).toContainEqual({ id: ordinary.id, firstName: "Léonie" });
    expect(JSON.stringify(listed)).not.toContain(`"${ordinary.firstName}"`);
  });
});

describe("faults", () => {
  it("applies a fault only to requests of a matching path, as many times as armed", async () => {
    sim.failNext(2, { kind: "status", status: 500 }, /\/events$/);
    const child = sim.children.ordinary.id;
    expect((await rawGet(`${sim.url}/children`, sim.tokens.household)).status).toBe(200);
    expect((await rawGet(`${sim.url}/children/${child}/events`, sim.tokens.household)).status).toBe(500);
    expect((await rawGet(`${sim.url}/children/${child}/events`, sim.tokens.household)).status).toBe(500);
    expect((await rawGet(`${sim.url}/children/${child}/events`, sim.tokens.household)).status).toBe(200);
  });

  it("leaves refused requests alone: a 401 is answered and the fault waits", async () => {
    sim.failNext(1, { kind: "status", status: 502 });
    expect((await rawGet(`${sim.url}/children`)).status).toBe(401);
    expect((await rawGet(`${sim.url}/children`, sim.tokens.household)).status).toBe(502);
  });

  it("cuts a body off after its headers promised more", async () => {
    sim.failNext(1, { kind: "cut-off" });
    const response = await request(`${sim.url}/children`, {
      headers: { authorization: `Bearer ${sim.tokens.household}` },
    });
    expect(response.statusCode).toBe(200);
    expect(Number(response.headers["content-length"])).toBeGreaterThan(10);
    await expect(response.body.text()).rejects.toThrow();
  });

  it("holds a slow answer until the (fake) timers pass its delay", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sim.failNext(1, { kind: "slow", delayMs: 120_000 });
    let settled = false;
    const pending = rawGet(`${sim.url}/children`, sim.tokens.household).finally(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(sim.requests).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(119_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).json).toEqual([
      sim.children.ordinary,
      sim.children.custody,
      sim.children.unsynced,
    ]);
  });

  it("trickles a body one byte at a time on the (fake) timers, then the right answer", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sim.failNext(1, { kind: "trickle", everyMs: 5_000, bytes: 3 });
    const response = await request(`${sim.url}/children`, {
      headers: { authorization: `Bearer ${sim.tokens.household}` },
    });
    // Status and headers at once, and no length: the client cannot know when the body ends.
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBeUndefined();
    const text = response.body.text();
    for (let sent = 1; sent <= 3; sent++) {
      await vi.advanceTimersByTimeAsync(5_000);
      await untilIo(() => sim.requests[0]?.bodyBytes === sent);
    }
    await vi.advanceTimersByTimeAsync(5_000);
    expect(JSON.parse(await text)).toEqual([
      sim.children.ordinary,
      sim.children.custody,
      sim.children.unsynced,
    ]);
  });

  it("trickles for ever without a length, and stops once the client goes", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    sim.failNext(1, { kind: "trickle", everyMs: 1_000 });
    const response = await request(`${sim.url}/children`, {
      headers: { authorization: `Bearer ${sim.tokens.household}` },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    await untilIo(() => sim.requests[0]?.bodyBytes === 1);
    const closed = new Promise((resolve) => response.body.on("error", resolve));
    response.body.destroy();
    await closed;
    // Its next byte finds the connection gone: nothing more is written, no timer is left.
    await vi.advanceTimersByTimeAsync(1_000);
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sim.requests[0]?.bodyBytes).toBeLessThanOrEqual(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([true, false])(
    "streams a huge body (content-length: %s) whole to a client that reads it",
    async (contentLength) => {
      const bytes = 5 * 1024 * 1024 + 3;
      sim.failNext(1, { kind: "huge", bytes, contentLength });
      const response = await request(`${sim.url}/children/x/events`, {
        headers: { authorization: `Bearer ${sim.tokens.household}` },
      });
      expect(response.headers["content-length"]).toBe(contentLength ? String(bytes) : undefined);
      let received = 0;
      let first = "";
      for await (const chunk of response.body) {
        if (first === "") first = String(chunk).slice(0, 8);
        received += (chunk as Buffer).length;
      }
      expect(received).toBe(bytes);
      expect(first).toBe('{"pad":"');
      expect(sim.requests[0]).toMatchObject({ fault: "huge", status: 200, bodyBytes: bytes });
    },
  );

  it("writes a huge body only as fast as the client takes it", async () => {
    const bytes = 250 * 1000 * 1000;
    sim.failNext(1, { kind: "huge", bytes, contentLength: false });
    const response = await request(`${sim.url}/children/x/events`, {
      headers: { authorization: `Bearer ${sim.tokens.household}` },
    });
    // Nothing read: the simulator writes what the loopback connection's buffers take, then waits.
    await untilIo(() => (sim.requests[0]?.bodyBytes ?? 0) > 0);
    const closed = new Promise((resolve) => response.body.on("error", resolve));
    response.body.destroy();
    await closed;
    expect(sim.requests[0]?.bodyBytes).toBeLessThan(64 * 1024 * 1024);
  });
});
