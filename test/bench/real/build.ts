import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { benchRoot } from "./paths.js";

let built: Promise<void> | undefined;

/**
 * Compiles the bridge as `npm run build` does (addon/tsconfig.build.json into dist/), once per
 * bench: the real-time sections measure that compiled JavaScript, as users run it, not the sources.
 */
export function buildBridge(): Promise<void> {
  built ??= (async () => {
    const tsc = join(benchRoot, "node_modules/typescript/bin/tsc");
    await promisify(execFile)(process.execPath, [tsc, "-p", "addon/tsconfig.build.json"], {
      cwd: benchRoot,
    });
  })();
  return built;
}
