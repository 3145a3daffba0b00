import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { OUT_ENV, PARAMS_ENV } from "./scenario-io.js";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const vitestCli = join(root, "node_modules", "vitest", "vitest.mjs");
const config = "test/bench/virtual/vitest.config.ts";

export interface VirtualRequest {
  /** Scenario name → its parameters; only the scenarios named here run. */
  params: Record<string, unknown>;
}

/**
 * Runs the virtual-time scenarios in Vitest (fake timers need its runtime) and returns what each
 * wrote, by file name. Vitest's own report goes to the terminal as it runs.
 */
export async function runVirtualScenarios(request: VirtualRequest): Promise<Map<string, unknown>> {
  const out = await mkdtemp(join(tmpdir(), "rf-bench-virtual-"));
  try {
    const files = Object.keys(request.params).map((name) => `test/bench/virtual/${name}.scenario.ts`);
    const child = spawn(process.execPath, [vitestCli, "run", "--config", config, ...files], {
      cwd: root,
      env: { ...process.env, [PARAMS_ENV]: JSON.stringify(request.params), [OUT_ENV]: out },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const [code] = (await once(child, "exit")) as [number | null];
    if (code !== 0) throw new Error(`the virtual-time scenarios failed (vitest exit ${code})`);
    const results = new Map<string, unknown>();
    for (const name of await readdir(out)) {
      if (!name.endsWith(".json")) continue;
      results.set(name.replace(/\.json$/, ""), JSON.parse(await readFile(join(out, name), "utf8")));
    }
    return results;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
