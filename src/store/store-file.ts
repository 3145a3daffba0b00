import type { JsonValue } from "./json.js";

// The on-disk format: one JSON object holding every entry. A marker and a version make a stray or
// future file recognisable as "not ours" instead of being read as an empty or half-right store.

/** Deliberately not `config.*`: the add-on layout reserves that name. */
export const STORE_FILE_NAME = "reward-facts-store.json";

const FORMAT = "reward-facts-store";
const VERSION = 1;

export type DecodeResult =
  | { readonly ok: true; readonly entries: Map<string, JsonValue> }
  | { readonly ok: false; readonly reason: string };

export function encodeStoreFile(entries: ReadonlyMap<string, JsonValue>): string {
  return `${JSON.stringify({ format: FORMAT, version: VERSION, entries: Object.fromEntries(entries) })}\n`;
}

export function decodeStoreFile(text: string): DecodeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isPlainObject(parsed)) return { ok: false, reason: "not a JSON object" };
  if (parsed.format !== FORMAT) return { ok: false, reason: `format is not "${FORMAT}"` };
  if (parsed.version !== VERSION) {
    return { ok: false, reason: `unsupported version ${String(parsed.version)}` };
  }
  if (!isPlainObject(parsed.entries)) return { ok: false, reason: "entries is not an object" };
  return { ok: true, entries: new Map(Object.entries(parsed.entries as Record<string, JsonValue>)) };
}

/**
 * write-file-atomic writes `<name>.<decimal hash>` next to the target and renames it over; a
 * kill -9 between the two leaves that temp file behind (the target itself is untouched).
 */
export function isLeftoverTempFile(fileName: string, storeFileName: string): boolean {
  return fileName.startsWith(`${storeFileName}.`) && /^\d+$/.test(fileName.slice(storeFileName.length + 1));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
