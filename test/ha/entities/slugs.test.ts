import { describe, expect, it } from "vitest";
import { slugify } from "../../../src/ha/entities/slugify.js";
import { loadFold, newSlugs } from "../../../src/ha/entities/slugs.js";

// What entities.test.ts leaves of slugs.ts: the fold loaded on first use, and a suffix that has
// to take the whole id. slugify.test.ts asks a real Home Assistant for the names a family gives;
// the odd inputs here carry Home Assistant 2024.3.3's own answers (homeassistant.util.slugify),
// asked once and written down, so that this file needs no Home Assistant.

describe("the fold loaded on first use", () => {
  it("is Home Assistant's slugify", async () => {
    const fold = await loadFold();
    expect(fold).toBe(slugify);
    expect(fold("Guðrún Ýr")).toBe("gudrun_yr");
  });

  it("separates words around a character of a block the transliteration knows nothing of", async () => {
    // U+0800 (Samaritan): npm's unidecode answers "", text-unidecode "[?]", a separator.
    const fold = await loadFold();
    expect(fold("a\u0800b")).toBe("a_b");
  });

  it("reads numeric character references left in a name, decimal and hexadecimal", async () => {
    const fold = await loadFold();
    expect(fold("L&#233;a")).toBe("le_a");
    expect(fold("L&#xe9;a")).toBe("le_a");
    // A code point outside the BMP (MATHEMATICAL BOLD CAPITAL A), which folds to its letter.
    expect(fold("&#x1D400;na")).toBe("ana");
    expect(fold("&#119808;na")).toBe("ana");
  });
});

describe("a newcomer's suffix", () => {
  it("is her whole id when every shorter start of it is taken", () => {
    const taken = new Set(["lea", "lea_ab12", "lea_ab12c"]);
    const slugs = newSlugs(slugify, [{ id: "AB-12-cd", firstName: "Léa" }], taken);
    expect(Object.fromEntries(slugs)).toEqual({ "AB-12-cd": "lea_ab12cd" });
  });
});
