import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  AWAY_FROM_BROKER,
  HomeAssistantPresence,
  PRESENCE_WAIT_AT_MOST_MS,
} from "../../../../src/ha/entities/mqtt/home-assistant-presence.js";
import { LogCollector } from "../../../support/engine-rig.js";

// Home Assistant's last will and birth, as the bridge reads them: facts wait between the two (the
// broker's side, with a real Mosquitto, in mqtt-link.test.ts; end to end in broker-away-from-ha.test.ts).

let log: LogCollector;
let presence: HomeAssistantPresence;

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-11-29T08:00:00Z") });
  log = new LogCollector();
  presence = new HomeAssistantPresence(log.logger());
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Home Assistant's presence on the broker", () => {
  it("is taken as present before any word, as a bridge that just started hears none", () => {
    expect(presence.away).toBe(false);
    presence.said("online");
    expect(presence.away).toBe(false);
    expect(log.lines).toHaveLength(0);
  });

  it("is away from its last will until its birth message, and says both once", () => {
    presence.said("offline");
    presence.said("offline");
    expect(presence.away).toBe(true);
    vi.advanceTimersByTime(PRESENCE_WAIT_AT_MOST_MS - 1_000);
    expect(presence.away).toBe(true);
    presence.said("online");
    expect(presence.away).toBe(false);
    expect(log.lines.map((line) => line.msg)).toEqual([
      AWAY_FROM_BROKER,
      "Home Assistant's MQTT client is back on the broker: facts go on",
    ]);
  });

  it("stops waiting after a while when no birth comes (turned off), and says why once", () => {
    presence.said("offline");
    vi.advanceTimersByTime(PRESENCE_WAIT_AT_MOST_MS);
    expect(presence.away).toBe(false);
    expect(presence.away).toBe(false);
    const warnings = log.matching(/is its birth message turned off/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.level).toBe(40);
    // A later will starts a new wait.
    presence.said("online");
    presence.said("offline");
    expect(presence.away).toBe(true);
  });

  it("ignores anything else said on the topic", () => {
    presence.said("offline");
    presence.said("restarting");
    expect(presence.away).toBe(true);
  });
});
