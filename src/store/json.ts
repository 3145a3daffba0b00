/** What the store keeps: exactly what survives a trip through a JSON file. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/**
 * A deep copy of `value` as it will read back from disk (Dates become strings, undefined
 * properties vanish, NaN becomes null), so memory never holds what a restart would not.
 * Returns undefined when JSON has no representation at all; throws on BigInt or a cycle.
 */
export function jsonCopy(value: unknown): JsonValue | undefined {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
}
