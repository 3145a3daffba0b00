import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { ensureHomeAssistant } from "./home-assistant-install.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";
import { runCommand, tailLines } from "./run-command.js";

const MARK = "result-json:";

/**
 * Calls a Python function in a Home Assistant release's own environment (its venv, inside its
 * Debian root where it has one) on each input, and returns its answers: the oracle for what Home
 * Assistant's own code makes of an input. `expression` is evaluated with `value` bound to each
 * input, after `imports` ran (e.g. `from homeassistant.util import slugify`, `slugify(value)`).
 */
export async function askHomeAssistantPython<T>(
  version: HomeAssistantVersion,
  imports: string,
  expression: string,
  inputs: readonly unknown[],
): Promise<T[]> {
  const install = await ensureHomeAssistant(version);
  const python = join(dirname(install.hassBin), "python");
  const script = [
    "import json, sys",
    imports,
    "inputs = json.load(open(sys.argv[1], encoding='utf-8'))",
    `print(${JSON.stringify(MARK)} + json.dumps([(${expression}) for value in inputs]))`,
  ].join("\n");
  // In a file, as the inputs can be many; where Home Assistant's side sees it (in its root).
  const dir = await mkdtemp(join(install.configParent, "python-inputs-"));
  const file = join(dir, "inputs.json");
  await writeFile(file, JSON.stringify(inputs));
  const seen = install.root ? `/${relative(install.root, file)}` : file;
  const run = await runCommand(python, ["-c", script, seen], {
    timeoutMs: 120_000,
    launcher: install.launcher,
    root: install.root,
  }).finally(() => rm(dir, { recursive: true, force: true }));
  const line = run.output.split("\n").find((text) => text.startsWith(MARK));
  if (run.code !== 0 || line === undefined)
    throw new Error(`Home Assistant ${version}'s Python failed (${run.code}):\n${tailLines(run.output, 20)}`);
  return JSON.parse(line.slice(MARK.length)) as T[];
}
