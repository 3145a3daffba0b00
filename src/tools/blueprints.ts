// `npm run blueprints`: the blueprints in each language besides English, written from the English
// ones (addon/blueprints/automation/reward_facts/, the originals) and the language's blueprint
// texts (src/ha/texts/<code>.ts): addon/blueprints/automation/reward_facts_<code>/, same files,
// same logic, only the words changed. A test holds that the written files are what this writes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { isScalar } from "yaml";
import { EXIT_USAGE, usageLine } from "../cli-usage.js";
import { EXIT_FAILURE, EXIT_OK } from "../exit-codes.js";
import { type BlueprintTexts, blueprintLanguages } from "../ha/index.js";
import { parseHaYaml, parseHaYamlDocument } from "./ha-yaml.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const BLUEPRINTS = "addon/blueprints/automation";
/** The originals, in English. */
export const ENGLISH_FOLDER = `${BLUEPRINTS}/reward_facts`;

export const languageFolder = (code: string) => `${BLUEPRINTS}/reward_facts_${code}`;

const header = (code: string, file: string) =>
  `# Written by npm run blueprints from ../reward_facts/${file} and src/ha/texts/${code}.ts: edit those.\n`;

/** A YAML path as the texts spell it (`blueprint.input.kinds.selector.select.options.0.label`). */
const keysOf = (path: string) => path.split(".").map((key) => (/^\d+$/.test(key) ? Number(key) : key));

/**
 * The paths of an English blueprint that every language must word: its name and description, each
 * input's name and description, the labels of a choice. Others (a spoken message) a language
 * words where it gives them.
 */
export function wordedPaths(englishText: string): string[] {
  const blueprint = (parseHaYaml(englishText) as { blueprint: BlueprintHead }).blueprint;
  const paths = ["blueprint.name", "blueprint.description"];
  for (const [key, input] of Object.entries(blueprint.input ?? {})) {
    paths.push(`blueprint.input.${key}.name`);
    if (input.description !== undefined) paths.push(`blueprint.input.${key}.description`);
    const options = input.selector?.select?.options ?? [];
    for (let index = 0; index < options.length; index++)
      paths.push(`blueprint.input.${key}.selector.select.options.${index}.label`);
  }
  return paths;
}

interface BlueprintHead {
  input?: Record<string, { description?: string; selector?: { select?: { options?: unknown[] } } }>;
}

/** One blueprint in a language: the English file with the language's words at their paths. */
export function translatedBlueprint(
  code: string,
  file: string,
  englishText: string,
  words: Readonly<Record<string, string>>,
): string {
  const document = parseHaYamlDocument(englishText);
  for (const [path, text] of Object.entries(words)) {
    const keys = keysOf(path);
    const node = document.getIn(keys, true);
    if (!isScalar(node) || typeof node.value !== "string")
      throw new Error(`${code}: ${file} has no text at ${path}`);
    node.value = text;
  }
  return header(code, file) + document.toString({ lineWidth: 100 });
}

/** Every language's blueprints, by the path each is written to. */
export function allTranslatedBlueprints(
  languages: Readonly<Record<string, BlueprintTexts>> = blueprintLanguages,
): Map<string, string> {
  const written = new Map<string, string>();
  const files = readdirSync(join(repoRoot, ENGLISH_FOLDER)).filter((file) => file.endsWith(".yaml"));
  for (const [code, texts] of Object.entries(languages)) {
    for (const file of files) {
      const english = readFileSync(join(repoRoot, ENGLISH_FOLDER, file), "utf8");
      written.set(
        `${languageFolder(code)}/${file}`,
        translatedBlueprint(code, file, english, texts[file] ?? {}),
      );
    }
  }
  return written;
}

/**
 * The blueprints the bridge offers in Home Assistant itself (parts/bridge-blueprints.ts), by
 * language and file, as JSON the bundle carries: the add-on's image holds no file of addon/.
 */
export const SHIPPED_BLUEPRINTS = "src/ha/parts/shipped-blueprints.json";

/** Every file npm run blueprints writes, by path: each language's folder, and the shipped set. */
export function allWrittenFiles(
  languages: Readonly<Record<string, BlueprintTexts>> = blueprintLanguages,
): Map<string, string> {
  const written = allTranslatedBlueprints(languages);
  const english = readdirSync(join(repoRoot, ENGLISH_FOLDER)).filter((file) => file.endsWith(".yaml"));
  const shipped: Record<string, Record<string, string>> = {
    en: Object.fromEntries(
      english.map((file) => [file, readFileSync(join(repoRoot, ENGLISH_FOLDER, file), "utf8")]),
    ),
  };
  for (const code of Object.keys(languages))
    shipped[code] = Object.fromEntries(
      english.map((file) => [file, written.get(`${languageFolder(code)}/${file}`) as string]),
    );
  written.set(SHIPPED_BLUEPRINTS, `${JSON.stringify(shipped, null, 2)}\n`);
  return written;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const sayError = (line: string) => process.stderr.write(`${line}\n`);

export const blueprintsUsage = `Usage: npm run blueprints -- [--help]

Writes each language's blueprints from the English ones and the texts of src/ha/texts/.

  --help  this text`;

/** The command: its exit code (2: a bad argument). */
export function main(argv: readonly string[], io = { stdout: say, stderr: sayError }): number {
  try {
    const { values } = parseArgs({ args: [...argv], options: { help: { type: "boolean", short: "h" } } });
    if (values.help) {
      io.stdout(blueprintsUsage);
      return EXIT_OK;
    }
  } catch (error) {
    io.stderr(usageLine("npm run blueprints", (error as Error).message));
    return EXIT_USAGE;
  }
  for (const [path, text] of allWrittenFiles()) {
    mkdirSync(dirname(join(repoRoot, path)), { recursive: true });
    writeFileSync(join(repoRoot, path), text);
    io.stdout(`wrote ${path}`);
  }
  return EXIT_OK;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`npm run blueprints: ${(error as Error).message}\n`);
    process.exitCode = EXIT_FAILURE;
  }
}
