import { describe, expect, it } from "vitest";
import { newTrack, noteFactsRead } from "../../src/engine/track.js";

const NOW = Date.parse("2026-11-21T15:00:00Z");
const child = { id: "c1", firstName: "Léa" };

describe("facts read from the journal and today's state", () => {
  it("pulls today's read forward for facts it has not seen, stale since the first of them", () => {
    const fresh = newTrack(child, NOW);
    fresh.todayDue = NOW + 60_000;
    noteFactsRead(fresh, NOW - 50_000, NOW - 5_000, NOW);
    expect(fresh.todayDue).toBe(NOW);
    expect(fresh.todayStaleSince).toBe(NOW - 50_000);

    const read = newTrack(child, NOW);
    read.todayDue = NOW + 60_000;
    read.todayReadAt = NOW - 30_000;
    noteFactsRead(read, NOW - 50_000, NOW - 5_000, NOW);
    expect(read.todayDue).toBe(NOW);
    // Stale since a little before the read: the two clocks may differ by a few seconds.
    expect(read.todayStaleSince).toBe(NOW - 40_000);
  });

  it("leaves it alone for facts older than its last read (a backlog's later pages)", () => {
    const track = newTrack(child, NOW);
    track.todayDue = NOW + 60_000;
    track.todayReadAt = NOW - 30_000;
    noteFactsRead(track, NOW - 5 * 3_600_000, NOW - 3_600_000, NOW);
    expect(track.todayDue).toBe(NOW + 60_000);
    expect(track.todayStaleSince).toBeNull();
  });
});
