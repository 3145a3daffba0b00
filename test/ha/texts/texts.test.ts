import { readdirSync } from "node:fs";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";
import { HouseholdLanguage } from "../../../src/ha/texts/household-language.js";
import { fill, languages, textsFor } from "../../../src/ha/texts/texts.js";
import { createLogger } from "../../../src/log/logger.js";

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

// The household's language as the sink follows it (household-language.ts), without Home
// Assistant: what it is told Home Assistant's language is, and what it answers. That a running
// bridge rewrites its entities, dashboard and notifications when it changes is household-language.test.ts.

/** A household language whose log lines land in `lines`. */
function followed(): {
  language: HouseholdLanguage;
  lines: Array<{ level: number; msg: string; language?: string }>;
} {
  const lines: Array<{ level: number; msg: string; language?: string }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      callback();
    },
  });
  return { language: new HouseholdLanguage(createLogger({ json: true, destination })), lines };
}

describe("the household's language", () => {
  it("is English before Home Assistant has said, and follows it, answering whether the texts changed", () => {
    const { language, lines } = followed();
    expect([language.code, language.texts]).toEqual(["en", en]);
    expect(language.follow(undefined)).toBe(false);
    // British English: the same texts, nothing to write again.
    expect(language.follow("en-GB")).toBe(false);
    expect(language.follow("fr")).toBe(true);
    expect([language.code, language.texts]).toEqual(["fr", fr]);
    // Asked again as it was: not even said again.
    expect(language.follow("fr")).toBe(false);
    expect(language.follow("fr-CA")).toBe(false);
    expect(lines.map((line) => [line.msg, line.language])).toEqual([
      ["writing in Home Assistant's language", "en"],
      ["writing in Home Assistant's language", "fr"],
      ["writing in Home Assistant's language", "fr"],
    ]);
  });

  it("falls back to English for a language it has no texts of, said as a warning", () => {
    const { language, lines } = followed();
    language.follow("fr");
    expect(language.follow("de")).toBe(true);
    expect([language.code, language.texts]).toEqual(["en", en]);
    expect(lines.at(-1)).toMatchObject({ level: 40, language: "de" });
    expect(lines.at(-1)?.msg).toMatch(/^the bridge has no texts in Home Assistant's language yet/);
  });

  it("writes a moment in Home Assistant's language as it spelled it, beyond the texts' language", () => {
    const { language } = followed();
    const at = Date.parse("2026-11-28T13:05:00Z");
    // ICU writes a narrow no-break space before PM in some releases, a plain one in others.
    expect(language.moment(at, "Europe/London")).toMatch(/^November 28, 2026 at 1:05\sPM$/);
    // Texts in English, the date as the British write it.
    language.follow("en-GB");
    expect(language.moment(at, "Europe/London")).toBe("28 November 2026 at 13:05");
    language.follow("de");
    expect(language.moment(at, "Europe/Berlin")).toBe("28. November 2026 um 14:05");
  });
});
