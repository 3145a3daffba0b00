import { describe, expect, it } from "vitest";
import { decodeLease, describeHolder, encodeLease, judgeLease, type Lease } from "../../src/ha/lease.js";

const TTL = 180_000;
const t0 = Date.parse("2026-11-28T10:00:00Z");
const first: Lease = {
  id: "first-id",
  host: "a0d7b954-reward-facts",
  mode: "addon",
  pid: 7,
  since: "2026-11-28T09:00:00.000Z",
  beat: new Date(t0).toISOString(),
};
const running =
  (...pids: number[]) =>
  (pid: number) =>
    pids.includes(pid);
const elsewhere = { id: "second-id", host: "laptop", isRunning: running() };

describe("the household lease", () => {
  it("is free when nobody holds it, or what it holds is not a lease", () => {
    for (const value of [undefined, "", "unknown", "{}", '{"id":"x"}', "not json"])
      expect(judgeLease(value, elsewhere, t0, TTL)).toEqual({ kind: "free" });
  });

  it("is another's while its holder beats, within three beats, on our clock", () => {
    const value = encodeLease(first);
    const { beat: _beat, ...holder } = first;
    expect(judgeLease(value, elsewhere, t0 + TTL, TTL)).toEqual({ kind: "taken", holder });
    expect(judgeLease(value, elsewhere, t0 + TTL + 1, TTL)).toEqual({ kind: "free", expired: holder });
    // A holder's clock far ahead does not hold it for ever.
    expect(judgeLease(value, elsewhere, t0 - TTL - 1, TTL)).toEqual({ kind: "free", expired: holder });
  });

  it("is its own for a bridge restarted in place (its id from its data directory), however fresh", () => {
    expect(judgeLease(encodeLease(first), { ...elsewhere, id: "first-id" }, t0, TTL)).toEqual({
      kind: "mine",
    });
  });

  it("is free on the holder's host once its process is gone (killed, restarted without its data)", () => {
    const here = { id: "new-id", host: first.host };
    expect(judgeLease(encodeLease(first), { ...here, isRunning: running() }, t0, TTL).kind).toBe("free");
    expect(judgeLease(encodeLease(first), { ...here, isRunning: running(7) }, t0, TTL).kind).toBe("taken");
    // Another host's process with the same pid says nothing of the holder's.
    expect(judgeLease(encodeLease(first), { ...elsewhere, isRunning: running() }, t0, TTL).kind).toBe(
      "taken",
    );
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
