import { describe, expect, it } from "vitest";
import { reconcileTracks } from "../../src/engine/discovery.js";
import type { ChildRef } from "../../src/engine/sink.js";
import { newTrack, type Track } from "../../src/engine/track.js";
import { LogCollector } from "../support/engine-rig.js";

// The children's list read again (every quarter of an hour, and after a 403) against the tracks
// the loop keeps: who is new, renamed, gone or back. A renamed child keeps her track (her cursor,
// her slug in Home Assistant) and is read again at once under her new name, unless a 403 holds
// her reads: that hold has its own schedule.

const MINUTE = 60_000;
const T0 = Date.parse("2026-11-21T15:00:00Z");
const lea: ChildRef = { id: "c-lea", firstName: "Léa" };
const noah: ChildRef = { id: "c-noah", firstName: "Noah" };

/** The tracks of `children`, read at T0 and next due ten minutes on. */
function tracksOf(...children: ChildRef[]): Map<string, Track> {
  const tracks = new Map<string, Track>();
  for (const child of children) {
    const track = newTrack(child, T0);
    track.eventsDue = T0 + 10 * MINUTE;
    track.todayDue = T0 + 10 * MINUTE;
    tracks.set(child.id, track);
  }
  return tracks;
}

describe("reconcileTracks", () => {
  it("reads a renamed child again at once under her new name, on the same track", () => {
    const tracks = tracksOf(lea, noah);
    const before = tracks.get(lea.id);
    const now = T0 + MINUTE;

    const result = reconcileTracks(
      tracks,
      [{ ...lea, firstName: "Léana" }, noah],
      now,
      new LogCollector().logger(),
    );

    expect(result).toEqual({ changed: true, gone: [], back: [] });
    expect(tracks.get(lea.id)).toBe(before);
    expect(before).toMatchObject({
      child: { id: lea.id, firstName: "Léana" },
      eventsDue: now,
      todayDue: now,
    });
    // Noah, unchanged, keeps his plan.
    expect(tracks.get(noah.id)).toMatchObject({ eventsDue: T0 + 10 * MINUTE, todayDue: T0 + 10 * MINUTE });
  });

  it("leaves the reads of a renamed child held by a 403 on the hold's own schedule", () => {
    const tracks = tracksOf(lea);
    const track = tracks.get(lea.id) as Track;
    track.suspended = { kind: "refused", read: "today", due: T0 + 2 * MINUTE, refusals: 1 };

    const result = reconcileTracks(
      tracks,
      [{ ...lea, firstName: "Léana" }],
      T0 + MINUTE,
      new LogCollector().logger(),
    );

    expect(result.changed).toBe(true);
    expect(track.child.firstName).toBe("Léana");
    expect(track).toMatchObject({ eventsDue: T0 + 10 * MINUTE, todayDue: T0 + 10 * MINUTE });
    expect(track.suspended).toEqual({ kind: "refused", read: "today", due: T0 + 2 * MINUTE, refusals: 1 });
  });

  it("says nothing changed when the list shows the same children under the same names", () => {
    const tracks = tracksOf(lea, noah);
    expect(reconcileTracks(tracks, [noah, lea], T0 + MINUTE, new LogCollector().logger())).toEqual({
      changed: false,
      gone: [],
      back: [],
    });
  });

  it("follows a new child at once, and hands back the gone and the listed again", () => {
    const tracks = tracksOf(lea, noah);
    const noahTrack = tracks.get(noah.id) as Track;
    const leaTrack = tracks.get(lea.id) as Track;
    leaTrack.suspended = { kind: "unlisted" };
    const ines: ChildRef = { id: "c-ines", firstName: "Inès" };
    const logs = new LogCollector();

    const result = reconcileTracks(tracks, [lea, ines], T0 + MINUTE, logs.logger());

    expect(result).toEqual({ changed: true, gone: [noahTrack], back: [leaTrack] });
    expect(tracks.get(ines.id)).toMatchObject({ child: ines, eventsDue: T0 + MINUTE, todayDue: T0 + MINUTE });
    expect(logs.matching(/following a child/)).toEqual([expect.objectContaining({ child: "Inès" })]);
  });
});
