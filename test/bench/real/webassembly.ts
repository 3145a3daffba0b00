import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { commandFor, type NodeRuntime } from "./runtimes.js";

/**
 * Whether a runtime, with its flags, has WebAssembly: undici parses every HTTP answer with it, so
 * without it the bridge reaches neither the API nor Home Assistant. --lite-mode implies --jitless,
 * which removes it (Node 20, 24.21 and 26.10 alike, measured with
 * `node --lite-mode -p "typeof WebAssembly"`).
 */
export async function hasWebAssembly(runtime: NodeRuntime): Promise<boolean> {
  const { command, args } = commandFor(runtime, ["-p", "typeof WebAssembly"]);
  const { stdout } = await promisify(execFile)(command, args, { timeout: 30_000 });
  return stdout.trim() === "object";
}
