import { describe, expect, it } from "vitest";
import { FanOutSink } from "../../src/engine/fan-out-sink.js";
import { type ChildRef, type EngineStatus, NotDeliveredError } from "../../src/engine/sink.js";
import { sampleToday } from "../support/facts.js";
import { RecordingSink } from "../support/recording-sink.js";

// Several sinks as one (Home Assistant and the demo's terminal): the first acknowledges facts and
// keeps the record, the others are shown each fact after it, and a failing one never hides another.

const lea = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa" } as ChildRef;
const fact = {
  id: "e1",
  at: "2026-11-21T16:02:11Z",
  day: "2026-11-21",
  childId: lea.id,
  type: "cheer_sent",
  cheer: "bravo",
};
const delivery = {
  event: fact,
  ageSeconds: 3,
  replayed: false,
  inDoubt: false,
  lastReceipt: undefined,
  uncertain: false,
} as never;
const status = { state: "ok", children: [lea] } as unknown as EngineStatus;

class ZonedSink extends RecordingSink {
  override timeZone(): undefined {
    return "Europe/Paris" as never;
  }
}
class FailingSink extends RecordingSink {
  closed = 0;
  override async open(): Promise<void> {
    throw new Error("refused");
  }
  override async close(): Promise<void> {
    this.closed++;
    throw new Error("close failed");
  }
}
class ClosingSink extends RecordingSink {
  closed = 0;
  override async close(): Promise<void> {
    this.closed++;
  }
}

describe("FanOutSink", () => {
  it("hands every sink the children, todays, statuses and unavailabilities", async () => {
    const [a, b] = [new RecordingSink(), new RecordingSink()];
    const both = new FanOutSink([a, b]);
    await both.open();
    await both.setChildren([lea]);
    await both.publishToday(lea, sampleToday as never, 1);
    await both.publishStatus(status);
    await both.markUnavailable(lea, "not_covered");
    for (const sink of [a, b]) {
      expect(sink.children).toEqual([lea]);
      expect(sink.todays).toHaveLength(1);
      expect(sink.statuses).toEqual([status]);
      expect(sink.unavailable.map((u) => u.reason)).toEqual(["not_covered"]);
    }
  });

  it("takes the first sink's answer and record for a fact; another's failure does not lose it", async () => {
    const [first, other] = [new RecordingSink(), new RecordingSink()];
    other.refusingFacts = true;
    const both = new FanOutSink([first, other]);
    expect(await both.publishEvent(lea, delivery)).toEqual({});
    expect(first.eventIdsOf(lea.id)).toEqual(["e1"]);
    expect(await both.readDeliveryRecord(lea)).toMatchObject({ kind: "names", factId: "e1" });
    first.refusingFacts = true;
    await expect(both.publishEvent(lea, delivery)).rejects.toBeInstanceOf(NotDeliveredError);
    expect(await new FanOutSink([]).publishEvent(lea, delivery)).toEqual({});
    expect(await new FanOutSink([]).readDeliveryRecord(lea)).toEqual({ kind: "none" });
  });

  it("is ready when every sink is, and waits for the last", async () => {
    const [a, b] = [new RecordingSink(), new RecordingSink()];
    const both = new FanOutSink([a, b]);
    b.setReady(false);
    expect(both.ready).toBe(false);
    const waited = both.whenReady(new AbortController().signal);
    b.setReady(true);
    await waited;
    expect(both.ready).toBe(true);
  });

  it("gives the first time zone a sink knows", () => {
    expect(new FanOutSink([new RecordingSink(), new ZonedSink()]).timeZone()).toBe("Europe/Paris");
    expect(new FanOutSink([new RecordingSink()]).timeZone()).toBeUndefined();
  });

  it("closes those already open when one refuses to open, and closes each even when one fails", async () => {
    const opened = new ClosingSink();
    const failing = new FailingSink();
    await expect(new FanOutSink([opened, failing]).open()).rejects.toThrow("refused");
    expect(opened.closed).toBe(1);
    const other = new ClosingSink();
    await expect(new FanOutSink([failing, other]).close()).rejects.toThrow("close failed");
    expect(other.closed).toBe(1);
  });
});
