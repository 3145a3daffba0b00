import { describe, expect, it } from "vitest";
import {
  decodeLease,
  describeHolder,
  encodeLease,
  judgeLease,
  type Lease,
  type LeaseReading,
} from "../../../src/ha/household/lease.js";

const TTL = 180_000;
const first: Lease = {
  id: "first-id",
  run: "run-of-first",
  host: "a0d7b954-reward-facts",
  mode: "addon",
  pid: 7,
  since: "2026-11-28T09:00:00.000Z",
  beat: "2026-11-28T10:00:00.000Z",
};
const { beat: _beat, ...holder } = first;
const running =
  (...pids: number[]) =>
  (pid: number) =>
    pids.includes(pid);
const elsewhere = { id: "second-id", run: "run-of-second", host: "laptop", isRunning: running() };
/** The lease as Home Assistant holds it, last written `ageMs` ago by its own clock. */
const held = (lease: Lease, ageMs: number | undefined): LeaseReading => ({
  value: encodeLease(lease),
  ageMs,
});

describe("the household lease", () => {
  it("is free when nobody holds it, or what it holds is not a lease", () => {
    for (const value of [undefined, "", "unknown", "{}", '{"id":"x"}', "not json"])
      expect(judgeLease({ value, ageMs: 0 }, elsewhere, TTL)).toEqual({ kind: "free" });
  });

  it("is another's while Home Assistant saw it renewed within three beats, by its own clock", () => {
    expect(judgeLease(held(first, TTL), elsewhere, TTL)).toEqual({ kind: "taken", holder });
    expect(judgeLease(held(first, TTL + 1), elsewhere, TTL)).toEqual({ kind: "free", expired: holder });
  });

  it("is judged the same whatever the holder wrote as its beat: a clock an hour off or ahead takes nothing", () => {
    for (const beat of ["2026-11-28T09:00:00.000Z", "2026-11-28T11:00:00.000Z", "2030-01-01T00:00:00.000Z"])
      expect(judgeLease(held({ ...first, beat }, 1_000), elsewhere, TTL)).toEqual({ kind: "taken", holder });
  });

  it("is taken as fresh when its age cannot be told: waiting is the safe side", () => {
    expect(judgeLease(held(first, undefined), elsewhere, TTL).kind).toBe("taken");
  });

  it("is this run's own, and an earlier run's of this bridge on this host whose process is gone", () => {
    const self = { ...elsewhere, id: "first-id", host: first.host };
    expect(judgeLease(held(first, 0), { ...self, run: "run-of-first" }, TTL)).toEqual({ kind: "mine" });
    expect(judgeLease(held(first, 0), self, TTL)).toEqual({ kind: "mine", restarted: true });
    // Written by a version without runs: this bridge's own, whatever its age.
    const { run: _run, ...older } = first;
    expect(judgeLease(held(older, 0), { ...self, host: "elsewhere" }, TTL)).toEqual({
      kind: "mine",
      restarted: true,
    });
  });

  it("is a copy's, not this bridge's, while another process with the same identity renews it", () => {
    const copy = { ...elsewhere, id: "first-id" };
    // On another host (the data directory moved to standalone while the add-on runs).
    expect(judgeLease(held(first, 0), copy, TTL)).toEqual({ kind: "taken", holder, copy: true });
    // On the same host, the holder's process still running.
    expect(judgeLease(held(first, 0), { ...copy, host: first.host, isRunning: running(7) }, TTL)).toEqual({
      kind: "taken",
      holder,
      copy: true,
    });
    // Silent for too long: the bridge's own again.
    expect(judgeLease(held(first, TTL + 1), copy, TTL)).toEqual({ kind: "mine", restarted: true });
  });

  it("is free on the holder's host once its process is gone (killed, restarted without its data)", () => {
    const here = { id: "new-id", run: "run-new", host: first.host };
    expect(judgeLease(held(first, 0), { ...here, isRunning: running() }, TTL).kind).toBe("free");
    expect(judgeLease(held(first, 0), { ...here, isRunning: running(7) }, TTL).kind).toBe("taken");
    // Another host's process with the same pid says nothing of the holder's.
    expect(judgeLease(held(first, 0), { ...elsewhere, isRunning: running() }, TTL).kind).toBe("taken");
  });

  it("fits an input_text (255 characters), a long host name cut", () => {
    const long = encodeLease({ ...first, host: "h".repeat(300), id: "0123456789abcdef0123456789abcdef0123" });
    expect(long.length).toBeLessThanOrEqual(255);
    expect(decodeLease(long)?.host).toBe("h".repeat(60));
  });

  it("names a holder as a person reads it", () => {
    expect(describeHolder(first)).toBe(
      "add-on on a0d7b954-reward-facts (process 7), started 2026-11-28T09:00:00.000Z",
    );
  });
});
