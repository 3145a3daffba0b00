import type { ChildRef } from "./sink.js";

// Letters that carry no combining accent, so NFD leaves them whole.
const plainLetters: Record<string, string> = {
  ø: "o",
  æ: "ae",
  œ: "oe",
  ß: "ss",
  đ: "d",
  ł: "l",
  þ: "th",
  ı: "i",
};
// Built from the keys rather than written out: esbuild writes strings in ASCII but leaves a regular
// expression as it is, and one character beyond Latin-1 makes V8 hold the bridge's whole bundled
// source at two bytes a character (1.4 MB instead of 0.7).
const plainLetter = new RegExp(`[${Object.keys(plainLetters).join("")}]`, "g");

/** Lower case without accents, so that "Léa", "lea" and "LEA" name the same child. */
export function foldName(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(plainLetter, (letter) => plainLetters[letter] ?? letter)
    .trim();
}

export interface ChildFilterResult {
  wanted: ChildRef[];
  /** Entries of the filter that named no listed child. */
  unmatched: string[];
}

/**
 * The `children` option: an entry names a child by id or by first name (case and accents
 * ignored). No entries means every child of the token.
 */
export function filterChildren(listed: readonly ChildRef[], filter: readonly string[]): ChildFilterResult {
  if (filter.length === 0) return { wanted: [...listed], unmatched: [] };
  const matches = (entry: string, child: ChildRef) =>
    entry === child.id || foldName(entry) === foldName(child.firstName);
  return {
    wanted: listed.filter((child) => filter.some((entry) => matches(entry, child))),
    unmatched: filter.filter((entry) => !listed.some((child) => matches(entry, child))),
  };
}
