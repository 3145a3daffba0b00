import { describe, expect, it } from "vitest";
import { mqttPayload } from "../../../../src/ha/entities/mqtt/payload.js";

// A payload in a script's `mqtt.publish` step: Home Assistant renders any string there holding
// `{{`, `{%` or `{#` as a template, and a family's label may hold one.

describe("a script's MQTT payload", () => {
  it("holds no template opening, whatever the labels hold", () => {
    const value = { label: "Tidy {{ room }} {% if %} {# note #}", nested: { text: "{{x}}" } };
    const payload = mqttPayload(value);
    expect(payload).not.toMatch(/\{[{%#]/);
    // The braces are still there, as JSON's escape of `{`.
    expect(payload).toContain(String.raw`"Tidy \u007b{ room }} \u007b% if %} \u007b# note #}"`);
  });

  it("is read back as the same JSON", () => {
    const value = { label: "{{ a }}{%b%}{#c#}", braces: "{ plain }", list: [{ n: 1 }], none: null };
    expect(JSON.parse(mqttPayload(value))).toEqual(value);
  });

  it("is plain JSON when no label opens a template", () => {
    const value = { event_type: "behavior_validated", data: { title: "{ not a template }" } };
    expect(mqttPayload(value)).toBe(JSON.stringify(value));
  });
});
