import { en } from "./en.js";
import { fr, frBlueprints } from "./fr.js";
import type { BlueprintTexts, Texts } from "./text-shapes.js";

// The shapes are named here too: the rest of the house takes the texts and their shape from one file.
export type { BlueprintTexts, Texts } from "./text-shapes.js";

/**
 * The languages the bridge speaks, by Home Assistant's language code. Adding one: a file beside
 * en.ts with each of its keys (the type and test/ha/texts/texts.test.ts say which are missing),
 * and its line here.
 */
export const languages: Readonly<Record<string, Texts>> = { en, fr };

/**
 * The blueprints' languages besides English, whose files are the originals (npm run blueprints
 * writes the others from them). A language without blueprints has the English ones.
 */
export const blueprintLanguages: Readonly<Record<string, BlueprintTexts>> = { fr: frBlueprints };

/** What a household's language gives: its texts, and whether the bridge had to fall back to English. */
export interface TextsChoice {
  /** The code of the language the texts are in. */
  code: string;
  texts: Texts;
  /** Home Assistant's language was not one the bridge speaks: English instead. */
  fellBack: boolean;
}

/**
 * The texts for Home Assistant's `language` (`fr`, `fr-CA`, `pt-BR`, …): that language's, else its
 * base language's (`fr-CA` → `fr`), else English.
 */
export function textsFor(language: string | undefined): TextsChoice {
  const asked = (language ?? "en").toLowerCase();
  const base = asked.split(/[-_]/)[0] ?? asked;
  for (const code of [asked, base]) {
    const texts = languages[code];
    if (texts) return { code, texts, fellBack: false };
  }
  return { code: "en", texts: en, fellBack: true };
}

/** A text with its `{name}` places filled in (a place with no value is left as it is). */
export function fill(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (place, name: string) => (name in values ? String(values[name]) : place));
}
