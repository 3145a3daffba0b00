import { describe, expect, it } from "vitest";
import {
  type DeliveryScriptInput,
  deliveryScript,
  readDeliveryResult,
} from "../../src/ha/delivery-script.js";

// The script that delivers one fact, as far as it can be read without running it: what a template
// may see and what the bridge reads back. What Home Assistant does with it (fired once, the record
// written in the same run, `redelivered` after a restored record) is proven on real releases in
// delivery-record.test.ts and ha-crash-redelivery.test.ts.

const input: DeliveryScriptInput = {
  eventType: "reward_facts_fact",
  data: { child_id: "c-lea", type: "behavior_validated", title: "Tidy the room" },
  factId: "ev-1",
  recordEntityId: "input_text.reward_facts_lea_last_fact",
  inDoubt: false,
  expectedStamp: undefined,
  serviceKey: "action",
};

/** Every string of a script step, at any depth. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

describe("the script that delivers a fact", () => {
  it("refuses a record that is not an input_text entity id: the id is written into its templates", () => {
    for (const recordEntityId of [
      "sensor.reward_facts_lea",
      "input_text.lea }}{{ states('x')",
      "input_text.Lea",
      "input_text.",
    ]) {
      expect(() => deliveryScript({ ...input, recordEntityId }), recordEntityId).toThrow(
        `not an input_text entity id: ${recordEntityId}`,
      );
    }
  });

  it("passes a family's words that look like a template through a variable, never into a template", () => {
    const title = "Tidy {{ states('lock.front_door') }} {% raw %}";
    const script = deliveryScript({ ...input, data: { ...input.data, title, note: "plain {words}" } });
    expect(script.variables.raw).toEqual({ title });
    // No step holds the family's words: the event reads them from `raw`, which Home Assistant
    // hands over as a value without rendering it.
    expect(stringsOf(script.sequence).some((text) => text.includes("lock.front_door"))).toBe(false);
    const event = script.sequence.find(
      (step): step is { event_data: Record<string, unknown> } =>
        typeof step === "object" && step !== null && "event" in step,
    );
    expect(event?.event_data).toMatchObject({
      title: '{{ raw["title"] }}',
      note: "plain {words}",
      child_id: "c-lea",
    });
  });

  it("writes the record with the release's key for a service call", () => {
    const written = (serviceKey: "action" | "service") =>
      deliveryScript({ ...input, serviceKey }).sequence.find(
        (step) => typeof step === "object" && step !== null && serviceKey in step,
      );
    expect(written("action")).toEqual({
      action: "input_text.set_value",
      target: { entity_id: input.recordEntityId },
      data: { value: "ev-1" },
    });
    expect(written("service")).toMatchObject({ service: "input_text.set_value" });
  });

  it("adds the steps before the event only when there are some", () => {
    const plain = deliveryScript({ ...input, beforeEvent: { redelivered: [], otherwise: [] } });
    expect(plain.sequence).toEqual(deliveryScript(input).sequence);
    const step = { action: "persistent_notification.create", data: { message: "fact" } };
    const withSteps = deliveryScript({ ...input, beforeEvent: { redelivered: [], otherwise: [step] } });
    expect(withSteps.sequence).toHaveLength(plain.sequence.length + 1);
    const branch = withSteps.sequence.find(
      (each): each is Record<string, unknown> => typeof each === "object" && each !== null && "if" in each,
    );
    expect([branch?.then, branch?.else]).toEqual([[], [step]]);
  });
});

describe("the script's answer", () => {
  it("says nothing was fired when the script stopped at the record (no response)", () => {
    expect(readDeliveryResult({ context: { id: "x" }, response: null })).toEqual({ fired: false });
    expect(readDeliveryResult({ context: { id: "x" } })).toEqual({ fired: false });
    expect(readDeliveryResult(null)).toEqual({ fired: false });
    expect(readDeliveryResult({ response: "delivered" })).toEqual({ fired: false });
  });

  it("gives the record's new stamp and whether the fact went as redelivered", () => {
    expect(
      readDeliveryResult({ response: { stamp: "2026-11-28T10:00:00.123456+00:00", redelivered: true } }),
    ).toEqual({ fired: true, stamp: "2026-11-28T10:00:00.123456+00:00", redelivered: true });
    // No record to stamp (it vanished during the run), and a `redelivered` that is not a boolean.
    expect(readDeliveryResult({ response: { stamp: "", redelivered: "True" } })).toEqual({
      fired: true,
      stamp: undefined,
      redelivered: false,
    });
  });
});
