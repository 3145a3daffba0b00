import { afterEach, describe, expect, it } from "vitest";

import { EngineRig } from "../support/engine-rig.js";

const MINUTE = 60_000;

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const START = "2026-11-21T09:00:00Z";
const onlyOrdinary = { prepare: (sim: EngineRig["sim"]) => ({ childrenFilter: [sim.children.ordinary.id] }) };

describe("429: the whole token pauses", () => {
  it("learns what a stricter API leaves: few 429s, each paused, the budget lowered, and says rate_limited", async () => {
    // An API stricter than its spec (5 a minute), as a token shared with another client would be.
    rig = await EngineRig.start({ start: START, simulator: { rateLimitPerMinute: 5 } });
    await rig.time.advance(10 * MINUTE);
    const limited = rig.served().filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    // It learns: not a 429 every minute (the old fixed pause got one per window, 10 here).
    expect(limited.length).toBeLessThanOrEqual(4);
    expect(rig.engine.status().rateLimitedCount).toBe(limited.length);
    // Never hammers: after each 429, a pause first (5 s at least halved by the jitter).
    for (const hit of limited) {
      const next = rig.served().find((r) => r.at > hit.at);
      if (next) expect(next.at - hit.at).toBeGreaterThanOrEqual(2_500);
    }
    // What it allows itself now fits what the API leaves.
    expect(rig.engine.status().budgetPerMinute).toBeLessThanOrEqual(5);
    expect(rig.sink.statuses.some((s) => s.state === "rate_limited")).toBe(true);
    expect(rig.logs.matching(/429/).length).toBe(limited.length);
  });

  it("honours a Retry-After header when the API gives one", async () => {
    rig = await EngineRig.start({
      start: START,
      simulator: { rateLimitPerMinute: 12, retryAfterSeconds: 20 },
    });
    await rig.time.advance(5 * MINUTE);
    const limited = rig.served().filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const hit of limited) {
      const next = rig.served().find((r) => r.at > hit.at);
      if (next) expect(next.at - hit.at).toBeGreaterThanOrEqual(20_000);
    }
  });
});

describe("5xx, timeouts and network errors", () => {
  it("retries a passing failure within the job and keeps the data flowing", async () => {
    rig = await EngineRig.start({ start: START, ...onlyOrdinary });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    rig.sim.failNext(2, { kind: "status", status: 503 }, /\/today$/);
    rig.sim.failNext(1, { kind: "cut-off" }, /\/events/);
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(3 * MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    expect(rig.sink.unavailable).toEqual([]);
    expect(rig.logs.matching(/cannot be read/)).toEqual([]);
  });

  it("a fact the sink refuses: the page is read again after a growing wait, not at once; said once each way", async () => {
    rig = await EngineRig.start({ start: START, ...onlyOrdinary });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    rig.sink.refusingFacts = true;
    const from = Date.now();
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(MINUTE);
    const reads = rig.sim.requests.filter((r) => r.at >= from && r.path.includes("/events"));
    // Every 30 s by the cadence; 1, 2, 4, 8 and 15 s apart once the fact is refused: a handful in
    // the minute. Read again at once, the refusal took the whole budget of the minute (28).
    expect(reads.length).toBeGreaterThanOrEqual(4);
    expect(reads.length).toBeLessThanOrEqual(9);
    expect(rig.logs.matching(/refused a fact/)).toHaveLength(1);
    rig.sink.refusingFacts = false;
    await rig.time.advance(MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    expect(rig.logs.matching(/takes the facts again/)).toHaveLength(1);
  });

  it("keeps the last values, goes unavailable only after three intervals, logs each transition once", async () => {
    rig = await EngineRig.start({ start: START, ...onlyOrdinary });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    const todaysBefore = rig.sink.todays.length;
    rig.sim.failNext(10_000, { kind: "status", status: 502 });
    const failingSince = Date.now();
    await rig.time.advance(2 * MINUTE);
    // Failing, but not for long yet: the last good values stand.
    expect(rig.sink.unavailable).toEqual([]);
    expect(rig.engine.status().state).toBe("ok");
    // Three today intervals after the first failed read (itself up to one interval later).
    await rig.time.advance(4 * MINUTE + 30_000);
    const marked = rig.sink.unavailable.filter((u) => u.childId === ordinary.id);
    expect(marked).toHaveLength(1);
    expect(marked[0]?.reason).toBe("api_unreachable");
    expect((marked[0]?.at ?? 0) - failingSince).toBeGreaterThanOrEqual(3 * MINUTE);
    expect(rig.engine.status().state).toBe("api_unreachable");
    expect(rig.sink.todays.length).toBe(todaysBefore);

    await rig.time.advance(20 * MINUTE);
    rig.sim.clearFaults();
    await rig.time.advance(3 * MINUTE);
    expect(rig.engine.status().state).toBe("ok");
    expect(rig.sink.todays.length).toBeGreaterThan(todaysBefore);
    // Every read failed together: one outage of the whole API, told once when it began and once
    // when it ended (issue 53), not once per source read (the child's journal, its today, the list).
    expect(rig.logs.matching(/cannot be read/)).toHaveLength(1);
    expect(rig.logs.matching(/answers again/)).toHaveLength(1);
    expect(rig.logs.matching(/answers again/)[0]?.failures).toBeGreaterThan(10);
    expect(rig.logs.matching(/child unavailable/)).toHaveLength(1);
  });

  it("gives up on a request that does not answer in time and tries again later", async () => {
    rig = await EngineRig.start({ start: START, ...onlyOrdinary });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(MINUTE);
    rig.time.stuckMs = 50;
    rig.sim.failNext(3, { kind: "slow", delayMs: 60_000 }, /\/events/);
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(4 * MINUTE);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
  });
});

describe("401: token rejected", () => {
  it("stops polling, says token_invalid, checks every 10 minutes, and resumes when it works again", async () => {
    rig = await EngineRig.start({ start: START });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    rig.sim.revokeToken(rig.token);
    const revokedAt = Date.now();
    await rig.time.advance(35 * MINUTE);
    expect(rig.engine.status().state).toBe("token_invalid");
    expect(rig.sink.lastStatus()?.state).toBe("token_invalid");
    // Requests of the revocation's own instant were served before it.
    const during = rig.served().filter((r) => r.at > revokedAt);
    // The request that met the 401, then one check every 10 minutes.
    expect(during.length).toBeLessThanOrEqual(4);
    expect(during.every((r) => r.status === 401)).toBe(true);
    expect(rig.sink.unavailable.filter((u) => u.reason === "token_rejected").length).toBe(3);
    expect(rig.logs.matching(/rejected the token/)).toHaveLength(1);

    rig.sim.restoreToken(rig.token);
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(11 * MINUTE);
    expect(rig.engine.status().state).toBe("ok");
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
    expect(rig.logs.matching(/works again/)).toHaveLength(1);
  });
});

describe("403 and 409", () => {
  it("403: the child is unavailable, no longer polled once the list drops it, and back when listed again", async () => {
    rig = await EngineRig.start({ start: START });
    const { custody } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    rig.sim.moveChildOut(custody.id);
    await rig.time.advance(2 * MINUTE);
    expect(rig.sink.unavailable.filter((u) => u.childId === custody.id).map((u) => u.reason)).toEqual([
      "not_covered",
    ]);
    expect(rig.engine.status().children.map((c) => c.id)).not.toContain(custody.id);
    // Until the next listing (every 5 minutes) its refused read is tried again; then nothing.
    const movedOutAt = Date.now() - 2 * MINUTE;
    await rig.time.until(
      () => rig?.served(/^\/children$/).some((r) => r.at > movedOutAt) === true,
      5 * MINUTE,
    );
    const after = Date.now();
    await rig.time.advance(10 * MINUTE);
    expect(rig.served(new RegExp(`^/children/${custody.id}/`)).filter((r) => r.at >= after)).toEqual([]);
    expect(rig.engine.status().children.map((c) => c.id)).not.toContain(custody.id);
    expect(rig.logs.matching(/no longer covers this child/)).toHaveLength(1);

    rig.sim.moveChildIn(custody.id);
    await rig.time.advance(6 * MINUTE);
    expect(rig.engine.status().children.map((c) => c.id)).toContain(custody.id);
    expect(rig.sink.todays.filter((t) => t.childId === custody.id && t.at > after).length).toBeGreaterThan(0);
  });

  it("409: unavailable with its reason, checked again at the today cadence, readable once synced", async () => {
    rig = await EngineRig.start({ start: START });
    const { unsynced } = rig.sim.children;
    await rig.time.advance(10 * MINUTE);
    expect(rig.sink.unavailable.filter((u) => u.childId === unsynced.id).map((u) => u.reason)).toEqual([
      "rules_not_synced",
    ]);
    const checks = rig.served(new RegExp(`^/children/${unsynced.id}/today`));
    expect(checks.length).toBeGreaterThanOrEqual(9);
    expect(checks.every((r) => r.status === 409)).toBe(true);
    expect(rig.logs.matching(/no rules synced/)).toHaveLength(1);

    rig.sim.syncRules(unsynced.id);
    await rig.time.advance(2 * MINUTE);
    expect(rig.sink.todays.some((t) => t.childId === unsynced.id)).toBe(true);
  });
});

describe("facts that are not failures, and answers that cannot be read", () => {
  it("a CalmDay is published as a fact, never as unavailable", async () => {
    // 22:00 in Paris: the custody child changes household at midnight.
    rig = await EngineRig.start({ start: "2026-11-21T21:00:00Z" });
    const { custody } = rig.sim.children;
    await rig.time.advance(4 * 60 * MINUTE);
    const todays = rig.sink.todays.filter((t) => t.childId === custody.id).map((t) => t.today.isMyDay);
    expect(todays).toContain(false);
    expect(todays).toContain(true);
    expect(rig.sink.unavailable.filter((u) => u.childId === custody.id)).toEqual([]);
  }, 60_000);

  it("logs the offending path of an unreadable answer once, skips it and keeps going", async () => {
    rig = await EngineRig.start({ start: START, ...onlyOrdinary });
    const { ordinary } = rig.sim.children;
    await rig.time.advance(2 * MINUTE);
    const good = rig.sink.todays.length;
    rig.sim.failNext(
      3,
      { kind: "body", body: { date: "2026-11-21", isMyDay: true, points: "many" } },
      /\/today$/,
    );
    rig.sim.failNext(1, { kind: "malformed-json" }, /\/events/);
    rig.sim.addRawEvent(ordinary.id, { type: "trophy_won", trophy: "gold" });
    rig.sim.addEvent(ordinary.id, { type: "cheer_sent" });
    await rig.time.advance(6 * MINUTE);

    const warnings = rig.logs.matching(/unreadable API answer/);
    expect(warnings.length).toBe(2);
    expect(JSON.stringify(warnings)).toContain("points");
    expect(rig.sink.todays.length).toBeGreaterThan(good);
    expect(rig.logs.matching(/does not know yet/)).toHaveLength(1);
    expect(rig.sink.eventIdsOf(ordinary.id)).toEqual(rig.sim.journal(ordinary.id).map((e) => e.id));
  });
});

describe("children", () => {
  it("follows new children, filters by id or first name, and stops removed ones", async () => {
    rig = await EngineRig.start({
      start: START,
      prepare: (sim) => ({
        childrenFilter: [sim.children.ordinary.firstName.toUpperCase(), "Zoé", "nobody"],
      }),
    });
    await rig.time.advance(MINUTE);
    expect(rig.engine.status().children.map((c) => c.id)).toEqual([rig.sim.children.ordinary.id]);
    expect(rig.logs.matching(/names no child/)).toHaveLength(1);
    const zoe = rig.sim.addChild("Zoe");
    await rig.time.advance(6 * MINUTE);
    expect(rig.engine.status().children.map((c) => c.id)).toContain(zoe.id);
    expect(rig.sink.todays.some((t) => t.childId === zoe.id)).toBe(true);
    // Said again only when what it names no child changes ("nobody" still), not at every listing.
    await rig.time.advance(20 * MINUTE);
    expect(rig.logs.matching(/names no child/).map((line) => line.unmatched)).toEqual([
      ["Zoé", "nobody"],
      ["nobody"],
    ]);
  });
});
