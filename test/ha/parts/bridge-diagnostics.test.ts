import { describe, expect, it } from "vitest";
import type { EngineStatus } from "../../../src/engine/sink.js";
import { BridgeDiagnostics, KEPT_SPELLS } from "../../../src/ha/parts/bridge-diagnostics.js";

// The bridge's redacted state for the diagnostics download, on a clock of the test's.

const lea = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa" };
const noah = { id: "7f3c2a10-0000-4000-8000-000000000002", firstName: "Noah" };
const engine: EngineStatus = {
  state: "ok",
  requestsLastMinute: 4,
  budgetPerMinute: 27,
  demandPerMinute: 6,
  stretch: 1,
  todayStretch: 1.5,
  children: [lea, noah] as EngineStatus["children"],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: Date.UTC(2026, 10, 21, 16, 0),
};

function clock(start: number) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("the bridge's diagnostics", () => {
  it("gives versions, the budget, and per child the last fact handed on and the last read", () => {
    const time = clock(Date.UTC(2026, 10, 21, 16, 5));
    const diagnostics = new BridgeDiagnostics(time.now);
    diagnostics.childRead({ id: lea.id }, undefined, Date.UTC(2026, 10, 21, 16, 4));
    diagnostics.factDelivered(lea.id, { id: "ev_42", at: "2026-11-21T16:02:11Z" });
    const snapshot = diagnostics.snapshot(engine, { bridge: "0.2.0", homeAssistant: "2026.11.0" });
    expect(snapshot).toMatchObject({
      versions: { bridge: "0.2.0", node: process.version, home_assistant: "2026.11.0" },
      budget: {
        requests_last_minute: 4,
        budget_per_minute: 27,
        demand_per_minute: 6,
        interval_stretch: 1,
        today_interval_stretch: 1.5,
        rate_limited_count: 0,
      },
      children: [
        {
          child_id: lea.id,
          last_fact_id: "ev_42",
          last_fact_at: "2026-11-21T16:02:11Z",
          delivered_at: "2026-11-21T16:05:00.000Z",
          read_at: "2026-11-21T16:04:00.000Z",
        },
        { child_id: noah.id, last_fact_id: null, last_fact_at: null, delivered_at: null, read_at: null },
      ],
      failing: [],
      recent_failures: [],
      last_turn_at: "2026-11-21T16:00:00.000Z",
    });
    // Ids and times: never the children's names nor what their facts say.
    expect(JSON.stringify(snapshot)).not.toMatch(/Léa|Noah/);
  });

  it("keeps the spells of failure: the bridge's and each child's, from their start to their end", () => {
    const time = clock(Date.UTC(2026, 10, 21, 8, 0));
    const diagnostics = new BridgeDiagnostics(time.now);
    diagnostics.status({ state: "api_unreachable" });
    time.advance(60_000);
    diagnostics.status({ state: "api_unreachable" });
    diagnostics.childUnavailable(noah.id, "token_rejected");
    time.advance(60_000);
    diagnostics.status({ state: "ok" });
    const snapshot = diagnostics.snapshot(engine, { bridge: "0.2.0", homeAssistant: undefined });
    expect(snapshot.failing).toEqual([
      { what: "token_rejected", child_id: noah.id, since: "2026-11-21T08:01:00.000Z", until: null },
    ]);
    expect(snapshot.recent_failures).toEqual([
      { what: "api_unreachable", since: "2026-11-21T08:00:00.000Z", until: "2026-11-21T08:02:00.000Z" },
    ]);
    diagnostics.childRead({ id: noah.id }, undefined, time.now());
    expect(diagnostics.snapshot(engine, { bridge: "0.2.0", homeAssistant: undefined }).failing).toEqual([]);
  });

  it("keeps the last spells only", () => {
    const time = clock(0);
    const diagnostics = new BridgeDiagnostics(time.now);
    for (let i = 0; i < KEPT_SPELLS + 5; i++) {
      diagnostics.status({ state: i % 2 ? "rate_limited" : "api_unreachable" });
      time.advance(1_000);
      diagnostics.status({ state: "ok" });
    }
    const ended = diagnostics.snapshot(engine, { bridge: "0.2.0", homeAssistant: undefined }).recent_failures;
    expect(ended).toHaveLength(KEPT_SPELLS);
  });
});
