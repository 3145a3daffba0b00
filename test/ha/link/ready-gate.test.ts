import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { ReadyGate } from "../../../src/ha/link/ready-gate.js";

// The gate the link's users wait on: "Home Assistant is running", "the broker took us". A waiter
// left behind by an abort would be released long after its caller gave up, or never let go.

/** How `promise` stands after every task queued so far ran: settled or not, and how. */
async function standing(promise: Promise<unknown>): Promise<string> {
  let state = "pending";
  promise.then(
    () => {
      state = "resolved";
    },
    (error: unknown) => {
      state = `rejected: ${error instanceof Error ? error.message : String(error)}`;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return state;
}

describe("a ready gate", () => {
  it("starts shut, and lets a waiter through at once once open", async () => {
    const gate = new ReadyGate();
    expect(gate.isOpen).toBe(false);
    gate.set(true);
    expect(gate.isOpen).toBe(true);
    expect(await standing(gate.wait(new AbortController().signal))).toBe("resolved");
  });

  it("holds every waiter while shut and releases them all when it opens", async () => {
    const gate = new ReadyGate();
    const signal = new AbortController().signal;
    const first = gate.wait(signal);
    const second = gate.wait(signal);
    // Shut again (the link dropped once more): still held.
    gate.set(false);
    expect([await standing(first), await standing(second)]).toEqual(["pending", "pending"]);
    gate.set(true);
    expect([await standing(first), await standing(second)]).toEqual(["resolved", "resolved"]);
  });

  it("keeps a waiter who arrives after it shut again waiting", async () => {
    const gate = new ReadyGate();
    gate.set(true);
    gate.set(false);
    expect(await standing(gate.wait(new AbortController().signal))).toBe("pending");
  });

  it("rejects a waiter whose signal aborts with its reason, and releases only the others", async () => {
    const gate = new ReadyGate();
    const stop = new AbortController();
    const given = gate.wait(stop.signal);
    const kept = gate.wait(new AbortController().signal);
    stop.abort(new Error("the bridge stops"));
    expect(await standing(given)).toBe("rejected: the bridge stops");
    gate.set(true);
    expect(await standing(kept)).toBe("resolved");
  });

  it("no longer listens to a waiter's signal once it let the waiter through", async () => {
    // A signal lives as long as the bridge: each wait must not leave a listener on it.
    const gate = new ReadyGate();
    const stop = new AbortController();
    for (let round = 0; round < 3; round++) {
      const waiting = gate.wait(stop.signal);
      gate.set(true);
      await waiting;
      gate.set(false);
    }
    expect(getEventListeners(stop.signal, "abort")).toEqual([]);
  });
});
