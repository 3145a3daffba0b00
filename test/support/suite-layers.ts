import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/*
 * Which suites need the lab (a real Home Assistant, Mosquitto, Chromium or strace) and which do
 * not: read from the imports themselves, so that a suite lands in the right layer without a list
 * to keep. A suite needs the lab when it reaches, through test/'s own files, one of the lab's
 * modules that install or start a real system. test/vitest.config.ts runs the others as the fast
 * layer (`npm run test:fast`), on every Node line CI tests.
 */

/** The lab's modules that install or start a real system (the lab's face re-exports them all). */
const STARTERS = [
  "lab/index.ts",
  "lab/home-assistant.ts",
  "lab/home-assistant-install.ts",
  "lab/mosquitto.ts",
  "lab/chromium.ts",
  "lab/syscall-trace.ts",
  "lab/debian-package.ts",
];

/** A relative import or re-export that stays in the program (`import type` is erased). */
const specifier =
  /(?:^|\n)\s*(?:import|export)\b(?!\s+type\b)[^;]*?\bfrom\s+"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/g;

/** test/'s files that `file` imports (relative imports only: packages and src/ start nothing real). */
function testImportsOf(testRoot: string, file: string): string[] {
  const found: string[] = [];
  for (const match of readFileSync(file, "utf8").matchAll(specifier)) {
    const target = resolve(dirname(file), (match[1] ?? match[2] ?? "").replace(/\.js$/, ".ts"));
    if (!relative(testRoot, target).startsWith("..")) found.push(target);
  }
  return found;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** The suites under `testRoot` that need the lab, as paths from the project's root (`test/ha/…`). */
export function labSuites(testRoot: string): string[] {
  const starters = new Set(STARTERS.map((path) => join(testRoot, path)));
  const importsOf = new Map<string, string[]>();
  const reachesStarter = (suite: string): boolean => {
    const seen = new Set([suite]);
    const queue = [suite];
    for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
      if (starters.has(file)) return true;
      let targets = importsOf.get(file);
      if (!targets) {
        targets = testImportsOf(testRoot, file);
        importsOf.set(file, targets);
      }
      for (const target of targets) {
        if (seen.has(target)) continue;
        seen.add(target);
        queue.push(target);
      }
    }
    return false;
  };
  const root = dirname(testRoot);
  return testFiles(testRoot)
    .filter(reachesStarter)
    .map((file) => relative(root, file).split(sep).join("/"))
    .sort();
}
