import { describe, expect, it } from "vitest";
import {
  type DeliveryScriptInput,
  deliveryScript,
  readDeliveryResult,
} from "../../../src/ha/delivery/delivery-script.js";

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

/** The steps run only when the fact is fired: the `then` of the top-level `if` on `fire`. */
function firing(script: { sequence: unknown[] }): unknown[] {
  const branch = script.sequence.find(
    (step): step is { then: unknown[] } =>
      typeof step === "object" &&
      step !== null &&
      JSON.stringify((step as { if?: unknown }).if)?.includes("{{ fire }}") === true,
  );
  if (!branch) throw new Error("no step fires the fact");
  return branch.then;
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
    const event = firing(script).find(
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
      firing(deliveryScript({ ...input, serviceKey })).find(
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
    expect(firing(withSteps)).toHaveLength(firing(plain).length + 1);
    const branch = firing(withSteps).find(
      (each): each is Record<string, unknown> => typeof each === "object" && each !== null && "if" in each,
    );
    expect([branch?.then, branch?.else]).toEqual([[], [step]]);
  });
});

describe("the script's check of the household lease", () => {
  const lease = { entityId: "input_text.reward_facts_bridge_lease", run: "0a1b2c3d4e5f" };

  it("comes first, naming this run as the lease writes it, and is left out for the demo", () => {
    const guarded = deliveryScript({ ...input, lease });
    expect(guarded.variables).toMatchObject({
      lease_entity: lease.entityId,
      lease_holder: '"run":"0a1b2c3d4e5f"',
    });
    expect(guarded.sequence[0]).toEqual({
      variables: { held: "{{ lease_holder in states(lease_entity) }}" },
    });
    // Nothing fires unless it is held; the answer says when it was not.
    expect(JSON.stringify(guarded.sequence[1])).toContain("{{ held and states(record) != fact_id }}");
    expect(JSON.stringify(guarded.sequence.at(-2))).toContain('"refused":"{{ not held }}"');
    const open = deliveryScript(input);
    expect(open.variables).not.toHaveProperty("lease_entity");
    expect(open.sequence[0]).toEqual({ variables: { held: true } });
    expect(open.sequence.slice(1)).toEqual(guarded.sequence.slice(1));
  });

  it("ends every run at one stop at the top, whose answer Home Assistant 2024.3 gives too", () => {
    const { sequence } = deliveryScript({ ...input, lease });
    const stops = stringsOf(sequence).filter((text) => text === "answered");
    expect(stops).toHaveLength(1);
    expect(sequence.at(-1)).toEqual({ stop: "answered", response_variable: "receipt" });
    expect(JSON.stringify(sequence.slice(0, -1))).not.toContain('"stop"');
  });

  it("refuses a lease helper that is no input_text, whose id it reads", () => {
    expect(() => deliveryScript({ ...input, lease: { ...lease, entityId: "sensor.x }}" } })).toThrow(
      "not an input_text entity id",
    );
  });

  it("answers a refusal the bridge tells from a fact already there", () => {
    expect(readDeliveryResult({ response: { fired: false, refused: true, stamp: "x" } })).toEqual({
      fired: false,
      refused: "lease",
    });
    expect(readDeliveryResult({ response: { fired: false, refused: false, stamp: "x" } })).toEqual({
      fired: false,
    });
  });
});

describe("the script's answer", () => {
  it("says nothing was fired when the record named the fact", () => {
    expect(
      readDeliveryResult({ response: { fired: false, refused: false, stamp: "", redelivered: false } }),
    ).toEqual({
      fired: false,
    });
  });

  it("never reads a result without an answer as a fact already there: a stopping Home Assistant ran no script", () => {
    // Home Assistant blocks new scripts once it is stopping: `execute_script` answers a null response.
    for (const result of [
      { context: { id: "x" }, response: null },
      { context: { id: "x" } },
      null,
      { response: "x" },
    ])
      expect(readDeliveryResult(result)).toEqual({ fired: false, unanswered: true });
  });

  it("gives the record's new stamp and whether the fact went as redelivered", () => {
    expect(
      readDeliveryResult({
        response: {
          fired: true,
          refused: false,
          stamp: "2026-11-28T10:00:00.123456+00:00",
          redelivered: true,
        },
      }),
    ).toEqual({ fired: true, stamp: "2026-11-28T10:00:00.123456+00:00", redelivered: true });
    // No record to stamp (it vanished during the run), and a `redelivered` that is not a boolean.
    expect(readDeliveryResult({ response: { fired: true, stamp: "", redelivered: "True" } })).toEqual({
      fired: true,
      stamp: undefined,
      redelivered: false,
    });
  });
});
