import { en } from "../../src/ha/texts/en.js";
import { fr } from "../../src/ha/texts/fr.js";

/*
 * English a parent would read on a French screen: every word of the bridge's English texts that
 * its French texts never use (so "Home Assistant", "Reward Facts" or "Inès" are not counted), and
 * the raw values a state or an event carries (`school`, `behavior_validated`, "Unavailable"), which
 * a parent must never meet as such. Compared case-insensitively, word by word.
 */

const wordsOf = (text: string) => text.toLowerCase().match(/\p{L}[\p{L}']*/gu) ?? [];

/** Every string in a texts object, however deep (its keys aside). */
const stringsOf = (value: unknown): string[] =>
  typeof value === "string" ? [value] : Object.values(value as object).flatMap(stringsOf);

/** Words of the strings in a texts object (its `{placeholders}` aside). */
const textWords = (texts: unknown) =>
  new Set(stringsOf(texts).flatMap((text) => wordsOf(text.replace(/\{[a-z_]+\}/g, " "))));

const RAW_VALUES = [
  "school",
  "holiday",
  "weekend",
  "behavior_validated",
  "cheer_sent",
  "menu_item_consumed",
  "token_invalid",
  "rules_not_synced",
  "unavailable",
  "unknown",
  "statistics",
];

const frenchWords = textWords(fr);
/** Short words both languages share in spelling or that mean nothing alone ("a", "of"). */
const tooShort = (word: string) => word.length < 4;

export const ENGLISH_WORDS: ReadonlySet<string> = new Set([
  ...[...textWords(en)].filter((word) => !frenchWords.has(word) && !tooShort(word)),
  ...RAW_VALUES,
]);

/** The English words found in `seen`, each once, in the order met. */
export function englishLeft(seen: string): string[] {
  const found = new Set<string>();
  const snake = seen.toLowerCase().match(/[a-z]+(?:_[a-z]+)+/g) ?? [];
  for (const word of [...snake, ...wordsOf(seen)]) if (ENGLISH_WORDS.has(word)) found.add(word);
  return [...found];
}
