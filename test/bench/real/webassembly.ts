import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { NodeRuntime } from "./runtimes.js";

/**
 * Whether a runtime, with its flags, has WebAssembly: undici parses every HTTP answer with it, so
 * without it the bridge reaches neither the API nor Home Assistant. --lite-mode removes it on Node 20.
 */
export async function hasWebAssembly(runtime: NodeRuntime): Promise<boolean> {
  const { stdout } = await promisify(execFile)(
    runtime.execPath,
    [...runtime.flags, "-p", "typeof WebAssembly"],
    { timeout: 30_000 },
  );
  return stdout.trim() === "object";
}
