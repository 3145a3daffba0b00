import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blueprintLanguages } from "../../src/ha/texts/texts.js";
import {
  allTranslatedBlueprints,
  allWrittenFiles,
  ENGLISH_FOLDER,
  languageFolder,
  translatedBlueprint,
  wordedPaths,
} from "../../src/tools/blueprints.js";
import { parseHaYaml } from "../../src/tools/ha-yaml.js";
import { readText, repoRoot } from "../addon/supervisor-rules.js";

const english = (file: string) => readText(`${ENGLISH_FOLDER}/${file}`);
const englishFiles = [...allTranslatedBlueprints({ en: {} }).keys()].map(
  (path) => path.split("/").at(-1) as string,
);

/** A document without the values at `paths`: what must be alike in every language. */
function withoutWords(document: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(parseHaYaml(document as string)) as Record<string, unknown>;
  for (const path of paths) {
    const keys = path.split(".");
    let node: Record<string, unknown> | undefined = copy;
    for (const key of keys.slice(0, -1)) node = node?.[key] as Record<string, unknown> | undefined;
    if (node) delete node[keys.at(-1) as string];
  }
  return copy;
}

describe("the blueprints in each language", () => {
  it("are written as npm run blueprints writes them (run it after changing a blueprint or its words)", () => {
    for (const [path, text] of allWrittenFiles()) {
      expect(readFileSync(join(repoRoot, path), "utf8"), path).toBe(text);
    }
  });

  describe.each(Object.entries(blueprintLanguages))("%s", (code, texts) => {
    it.each(englishFiles)("words every name, description and choice of %s", (file) => {
      const given = Object.keys(texts[file] ?? {});
      expect(wordedPaths(english(file)).filter((path) => !given.includes(path))).toEqual([]);
    });

    it.each(englishFiles)("changes nothing of %s but its words", (file) => {
      const paths = Object.keys(texts[file] ?? {});
      const translated = readText(`${languageFolder(code)}/${file}`);
      expect(withoutWords(translated, paths)).toEqual(withoutWords(english(file), paths));
    });
  });

  it("refuses words for a path the English blueprint has no text at", () => {
    expect(() =>
      translatedBlueprint("xx", "celebrate.yaml", english("celebrate.yaml"), {
        "blueprint.input.nothing.name": "?",
      }),
    ).toThrow(/no text at blueprint\.input\.nothing\.name/);
  });
});
