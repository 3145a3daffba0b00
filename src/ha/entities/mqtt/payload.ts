/**
 * JSON for an `mqtt.publish` step of a script. Home Assistant renders every string of a script
 * holding `{{`, `{%` or `{#` as a template, and a family's label may hold one: such a brace, which
 * can only be inside a string in JSON, is written as the escape `\u007b` instead, so the payload
 * is no template and arrives as the same JSON.
 */
export function mqttPayload(value: unknown): string {
  return JSON.stringify(value).replace(/\{(?=[{%#])/g, "\\u007b");
}
