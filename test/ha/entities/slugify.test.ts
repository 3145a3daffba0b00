import { beforeAll, describe, expect, it } from "vitest";
import { slugify } from "../../../src/ha/entities/slugify.js";
import { MAX_SLUG_LENGTH, slugOfName } from "../../../src/ha/entities/slugs.js";
import { askHomeAssistantPython, testedHomeAssistantVersion } from "../../lab/index.js";

const version = testedHomeAssistantVersion();

// The names a family may give, in every script a household may write, and what Home Assistant's own
// slugify makes of each: the expected ids are Home Assistant's answers, asked of the release's own
// code (homeassistant.util.slugify in its environment), never written here.
const names = [
  // Latin with diacritics, and the letters that carry no combining accent.
  "Léa",
  "Zoé-Anne",
  "  Max  ",
  "Bérénice Rose",
  "François",
  "Ñandú",
  "Chloë",
  "Şükrü",
  "Łucja",
  "Guðrún",
  "Þór",
  "Straße",
  "Ørjan",
  "Æsa",
  "Œdipe",
  "Ðorđe",
  "Dvořák",
  "Nguyễn Thị Minh Khai",
  // Cyrillic, Greek, Armenian, Georgian, Hebrew, Arabic.
  "Дарья",
  "Алёна",
  "Щукина",
  "Ελένη",
  "Γιώργος",
  "Անի",
  "ნინო",
  "נועה",
  "محمد",
  "فاطمة الزهراء",
  // Chinese, Japanese, Korean, Thai, Devanagari.
  "美玲",
  "王小明",
  "さくら",
  "ハルト",
  "陽翔",
  "지우",
  "สมชาย",
  "अनन्या",
  // Apostrophes, digits, symbols.
  "D'Artagnan",
  "Anne‑Marie",
  "Léo 2",
  "Kid 1,000",
  "R2-D2",
  "Jean & Paul",
  // Names made only of symbols or emoji, and emoji beside letters.
  "🦄",
  "👧🏽",
  "★ ★",
  "---",
  "Mia 🌸",
  // Very long names.
  "Marie-Antoinette Josèphe Jeanne de Habsbourg-Lorraine, archiduchesse d'Autriche",
  "Pablo Diego José Francisco de Paula Juan Nepomuceno María de los Remedios Cipriano de la Santísima Trinidad Ruiz y Picasso",
];

let expected: string[];

beforeAll(async () => {
  expected = await askHomeAssistantPython<string>(
    version,
    "from homeassistant.util import slugify",
    "slugify(value)",
    names,
  );
}, 900_000);

describe(`names as Home Assistant ${version} makes them into ids`, () => {
  it.each(names.map((name, index) => [name, index] as const))("%j", (name, index) => {
    const fromHomeAssistant = expected[index] as string;
    // Home Assistant answers "unknown" where nothing of the name is left; the bridge says "".
    expect(slugify(name) || "unknown").toBe(fromHomeAssistant);
  });

  it("gives each child the whole slug, an id of her own where nothing is left, a cut one past the length", () => {
    names.forEach((name, index) => {
      const fromHomeAssistant = expected[index] as string;
      const id = `${index.toString(16).padStart(8, "a")}-1111-4000-8000-000000000000`;
      const slug = slugOfName(slugify, name, id);
      if (fromHomeAssistant === "unknown") expect(slug, name).toBe(`child_${id.slice(0, 8)}`);
      else if (fromHomeAssistant.length <= MAX_SLUG_LENGTH) expect(slug, name).toBe(fromHomeAssistant);
      else {
        expect(fromHomeAssistant.startsWith(`${slug}_`), name).toBe(true);
        expect(slug.length, name).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
      }
    });
    // The table holds each kind of case.
    expect(expected).toContain("unknown");
    expect(expected.some((slug) => slug.length > MAX_SLUG_LENGTH)).toBe(true);
  });

  it("agrees on every character of the Basic Multilingual Plane but a few rare ones", async () => {
    // Each character between two letters, as it would sit in a name; surrogates are no characters.
    const codePoints = Array.from({ length: 0x10000 - 0x80 }, (_, i) => i + 0x80).filter(
      (codePoint) => codePoint < 0xd800 || codePoint >= 0xe000,
    );
    const texts = codePoints.map((codePoint) => `a${String.fromCodePoint(codePoint)}b`);
    const theirs = await askHomeAssistantPython<string>(
      version,
      "from homeassistant.util import slugify",
      "slugify(value)",
      texts,
    );
    const differing = texts.filter((text, index) => (slugify(text) || "unknown") !== theirs[index]);
    // Measured on both releases: 63 (C1 controls, tone letters, rare Greek, Cherokee and Latin
    // letters, four circle quadrants, one Arabic ligature); a change of the transliteration shows here.
    expect(differing.length).toBeLessThanOrEqual(63);
  }, 120_000);
});
