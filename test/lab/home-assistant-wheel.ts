import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { InstallStep } from "./debian-root.js";
import type { InstallRecipe } from "./home-assistant-versions.js";
import { satisfies } from "./host-python.js";

/** Where the virtualenv goes; paths as the install's side sees them (inside the root if any). */
export interface VenvPaths {
  venv: string;
  /** The venv's interpreter. */
  python: string;
  hassBin: string;
  downloads: string;
  constraints: string;
  /** Maps one of the paths above to where this process finds it. */
  host(path: string): string;
}

/**
 * Makes a virtualenv with `python` and installs a release's wheel into it, under the constraints
 * the wheel ships (what Home Assistant itself is tested with: every transitive dependency pinned,
 * so that the install does not drift as PyPI moves on), then checks what the tests rely on.
 * `run` runs each step on the install's side and throws when one fails.
 */
export async function installWheel(
  recipe: InstallRecipe,
  python: string,
  paths: VenvPaths,
  run: InstallStep,
): Promise<void> {
  const minor = recipe.python.atLeast.slice(0, 2).join(".");
  await run("creating the virtualenv", python, ["-m", "venv", paths.venv], {
    hint: `; on Debian/Ubuntu, python${minor}-venv brings the venv module`,
  });
  await run("downloading the Home Assistant wheel", paths.python, [
    "-m",
    "pip",
    "download",
    "--no-deps",
    "--only-binary",
    ":all:",
    "--dest",
    paths.downloads,
    `homeassistant==${recipe.version}`,
  ]);
  const wheel = (await readdir(paths.host(paths.downloads))).find(
    (name) => name.startsWith(`homeassistant-${recipe.version}-`) && name.endsWith(".whl"),
  );
  if (!wheel) throw new Error("pip download produced no homeassistant wheel");
  const wheelPath = join(paths.downloads, wheel);
  const constraints = await run("reading package_constraints.txt from the wheel", paths.python, [
    "-c",
    "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('homeassistant/package_constraints.txt').decode())",
    wheelPath,
  ]);
  await writeFile(paths.host(paths.constraints), withHarnessConstraints(constraints, recipe.constraints));
  await run("pip install", paths.python, [
    "-m",
    "pip",
    "install",
    "--constraint",
    paths.constraints,
    wheelPath,
    ...recipe.requirements,
  ]);
  const version = (await run("checking hass", paths.hassBin, ["--version"])).trim();
  if (version !== recipe.version) throw new Error(`hass --version says ${JSON.stringify(version)}`);
  // Transitive dependencies can drift past what the constraints pin; an import failing here
  // would otherwise show up later as a Home Assistant in recovery mode.
  await run("importing the integrations the tests load", paths.python, ["-c", importCheck(recipe)]);
}

/** A requirement's name as pip compares them (PEP 503): `PyTurboJPEG` and `pyturbojpeg` are one. */
function packageName(line: string): string {
  return (/^\s*([A-Za-z0-9._-]+)/.exec(line)?.[1] ?? "").toLowerCase().replace(/[-_.]+/g, "-");
}

/**
 * The wheel's constraints with the recipe's: a recipe pin of a package the wheel already pins
 * replaces that line (pip refuses two pins of one package), the others are appended.
 */
export function withHarnessConstraints(wheelConstraints: string, pins: readonly string[]): string {
  const replaced = new Set(pins.map(packageName));
  const kept = wheelConstraints
    .trimEnd()
    .split("\n")
    .filter((line) => line.trim().startsWith("#") || !replaced.has(packageName(line)));
  const added = pins.length ? ["", "# Added by the test harness (home-assistant-versions.ts)", ...pins] : [];
  return `${[...kept, ...added].join("\n")}\n`;
}

/** The version of `python` (run on the install's side), checked against what the release needs. */
export async function checkedPythonVersion(
  recipe: InstallRecipe,
  python: string,
  run: InstallStep,
): Promise<string> {
  const probe = "import sys; print('.'.join(map(str, sys.version_info[:3])))";
  const version = (await run(`checking ${python}`, python, ["-c", probe])).trim();
  if (!satisfies(version, recipe.python))
    throw new Error(`${python} is Python ${version}, which does not fit`);
  return version;
}

function importCheck(recipe: InstallRecipe): string {
  return [
    "import importlib",
    `for name in ${JSON.stringify(recipe.modules)}:`,
    "    importlib.import_module(name)",
    `for name in ${JSON.stringify(recipe.integrations)}:`,
    "    importlib.import_module('homeassistant.components.' + name)",
  ].join("\n");
}
