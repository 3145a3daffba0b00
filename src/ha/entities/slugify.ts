import unidecode from "unidecode";

// A name made into an id the way Home Assistant makes one (`homeassistant.util.slugify`, which is
// python-slugify over text-unidecode's transliteration tables): Guðrún → gudrun, Дарья → daria,
// 美玲 → mei_ling. So an id the bridge gives a child is the one a user would expect from Home
// Assistant, in any script. The steps follow python-slugify's, with "_" as the separator.
//
// The transliteration is npm's `unidecode`, a port of the same Perl tables text-unidecode comes
// from. Where it knows nothing of a whole block of 256 code points it answers "", where
// text-unidecode answers "[?]", which becomes a separator: that difference is bridged here. What
// remains, measured over every code point of the BMP written between two letters, is 63 of 63,360
// (C1 controls, tone letters, a few rare Greek, Cherokee and Latin letters); every name of the
// table in test/ha/entities/slugify.test.ts, which the real Home Assistant writes, matches.

/** A separator, as python-slugify's `-` before it becomes the caller's. */
const SEPARATOR = "-";

/** Blocks (code point >> 8) of the BMP the transliteration table knows nothing of. */
const unknownBlocks = new Map<number, boolean>();

function isUnknownBlock(block: number): boolean {
  let unknown = unknownBlocks.get(block);
  if (unknown === undefined) {
    unknown = true;
    for (let low = 0; low < 256 && unknown; low++) {
      const codePoint = (block << 8) | low;
      if (codePoint >= 0xd800 && codePoint < 0xe000) continue;
      if (unidecode(String.fromCodePoint(codePoint)) !== "") unknown = false;
    }
    unknownBlocks.set(block, unknown);
  }
  return unknown;
}

/** ASCII for any text, as text-unidecode writes it. */
function transliterate(text: string): string {
  let ascii = "";
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (codePoint < 0x80) ascii += character;
    else if (
      codePoint <= 0xffff &&
      !(codePoint >= 0xd800 && codePoint < 0xe000) &&
      isUnknownBlock(codePoint >> 8)
    )
      ascii += "[?]";
    else ascii += unidecode(character);
  }
  return ascii;
}

/** python-slugify's reading of numeric character references left in a text (`&#233;`, `&#xe9;`). */
function decodeReferences(text: string): string {
  const decoded = (codePoint: number) => (codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : "");
  return text
    .replace(/&#(\d+);/g, (_, digits: string) => decoded(Number(digits)))
    .replace(/&#x([\da-fA-F]+);/g, (_, hex: string) => decoded(Number.parseInt(hex, 16)));
}

/**
 * `text` as Home Assistant's slugify makes it: lower-case ASCII letters and digits, words joined
 * by `_`; "" when nothing of it is left (where Home Assistant says "unknown": the caller decides).
 */
export function slugify(text: string): string {
  let slug = text.replace(/'+/g, SEPARATOR).normalize("NFKD");
  slug = decodeReferences(transliterate(slug));
  slug = slug.normalize("NFKD").toLowerCase().replace(/'+/g, "");
  // A thousands separator between digits is dropped (1,000 → 1000).
  slug = slug.replace(/(?<=\d),(?=\d)/g, "");
  slug = slug.replace(/[^-a-z0-9]+/g, SEPARATOR).replace(/-{2,}/g, SEPARATOR);
  return slug.replace(/^-+|-+$/g, "").replaceAll(SEPARATOR, "_");
}
