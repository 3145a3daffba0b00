/*
 * The users' YAML (DOCS.md's examples, the blueprints) is written in the syntax of Home Assistant
 * 2024.10 and later. Releases before it refuse that syntax, and DOCS.md tells their users how to
 * spell an example for them; this is exactly that translation, which the tests apply before
 * loading the examples and blueprints into the oldest release they run on:
 * - at the top of an automation, `triggers:`, `conditions:`, `actions:` become `trigger:`,
 *   `condition:`, `action:`;
 * - a trigger's kind, `trigger: state`, becomes `platform: state`;
 * - a service call, `action: light.turn_on`, becomes `service: light.turn_on`;
 * - a blueprint's `homeassistant: min_version:` goes (older releases would refuse the blueprint).
 * Mechanical on purpose: a mapping whose `trigger` or `action` is a string is a trigger or a
 * service call (a string `action` inside a notification's data would be mistaken for one; none
 * of our YAML has that).
 */

const singular: Record<string, string> = { triggers: "trigger", conditions: "condition", actions: "action" };

/** The pre-2024.10 spelling of an automation or an automation blueprint (parsed YAML). */
export function toPre2024_10Syntax(document: unknown): unknown {
  if (!isMapping(document)) return document;
  const top: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "blueprint" && isMapping(value)) top[key] = withoutMinVersion(value);
    else top[singular[key] ?? key] = value;
  }
  return renameStringKeys(top);
}

function withoutMinVersion(metadata: Record<string, unknown>): Record<string, unknown> {
  const { homeassistant, ...rest } = metadata;
  if (!isMapping(homeassistant)) return metadata;
  const { min_version: _dropped, ...others } = homeassistant;
  return Object.keys(others).length ? { ...rest, homeassistant: others } : rest;
}

/** `trigger: <kind>` → `platform: <kind>` and `action: <service>` → `service: <service>`, at any depth. */
function renameStringKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(renameStringKeys);
  if (!isMapping(node)) return node;
  const renamed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const newKey =
      typeof value === "string" && key === "trigger"
        ? "platform"
        : typeof value === "string" && key === "action"
          ? "service"
          : key;
    renamed[newKey] = renameStringKeys(value);
  }
  return renamed;
}

/** A plain mapping: a parsed YAML object, not an array nor a tagged value such as `!input`. */
function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype;
}

/** Whether `version` (e.g. `2024.3.3`) predates the plural keys and `action:` for services. */
export function readsOnlyPre2024_10Syntax(version: string): boolean {
  const [year = 0, month = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  return year < 2024 || (year === 2024 && month < 10);
}
