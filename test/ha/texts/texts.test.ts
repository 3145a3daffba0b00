import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { en } from "../../../src/ha/texts/en.js";
import { fill, languages, textsFor } from "../../../src/ha/texts/texts.js";

const folder = fileURLToPath(new URL("../../../src/ha/texts/", import.meta.url));

/** Every text of a language, by its path (`dashboard.title`). */
function flatten(texts: object, prefix = ""): Map<string, unknown> {
  const flat = new Map<string, unknown>();
  for (const [key, value] of Object.entries(texts)) {
    if (value !== null && typeof value === "object")
      for (const [inner, text] of flatten(value, `${prefix}${key}.`)) flat.set(inner, text);
    else flat.set(`${prefix}${key}`, value);
  }
  return flat;
}

const places = (text: unknown) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("the bridge's languages", () => {
  const english = flatten(en);

  it("has a file for each language it lists, and lists each file", () => {
    const files = readdirSync(folder)
      .filter((file) => /^[a-z]{2}(-[a-z]+)?\.ts$/i.test(file))
      .map((file) => file.replace(/\.ts$/, ""));
    expect(files.sort()).toEqual(Object.keys(languages).sort());
  });

  it.each(Object.entries(languages))(
    "%s has every text English has, none empty, none extra",
    (_code, texts) => {
      const theirs = flatten(texts);
      expect([...english.keys()].filter((key) => !theirs.has(key))).toEqual([]);
      expect([...theirs.keys()].filter((key) => !english.has(key))).toEqual([]);
      expect([...theirs].filter(([, text]) => typeof text !== "string" || text.trim() === "")).toEqual([]);
    },
  );

  it.each(Object.entries(languages))("%s fills the same places as English", (_code, texts) => {
    const theirs = flatten(texts);
    const differing = [...english].filter(
      ([key, text]) => places(text).join() !== places(theirs.get(key)).join(),
    );
    expect(differing.map(([key]) => key)).toEqual([]);
  });

  it("speaks Home Assistant's language, its base language, or English said as a fallback", () => {
    expect(textsFor("fr")).toMatchObject({ code: "fr", fellBack: false });
    expect(textsFor("fr-CA")).toMatchObject({ code: "fr", fellBack: false });
    expect(textsFor("en-GB")).toMatchObject({ code: "en", fellBack: false });
    expect(textsFor("de")).toMatchObject({ code: "en", fellBack: true, texts: en });
    expect(textsFor(undefined)).toMatchObject({ code: "en", fellBack: false });
  });

  it("fills places by name and leaves an unknown one as it is", () => {
    expect(fill("{child} has {minutes} min {unknown}", { child: "Léa", minutes: 5 })).toBe(
      "Léa has 5 min {unknown}",
    );
  });
});
