// The bridge's command line: `--help` prints the options (config/help.ts) and exits 0; any other
// argument is a mistake, reported in one line with exit code 2 before anything starts. Everything
// else is configured by options and environment variables (run-bridge.ts).
import { parseArgs } from "node:util";
import { EXIT_USAGE, usageLine } from "./cli-usage.js";
import { bridgeHelp } from "./config/help.js";
import { EXIT_OK } from "./exit-codes.js";
import { runBridge } from "./run-bridge.js";

export interface BridgeCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `"help"`, `"run"`, or the one-line problem of a bad argument. */
export function parseBridgeArgs(argv: readonly string[]): "help" | "run" | { problem: string } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
    return values.help ? "help" : "run";
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** What main.ts runs: resolves with the process's exit code. */
export async function bridgeCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: BridgeCliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  },
): Promise<number> {
  const args = parseBridgeArgs(argv);
  if (args === "help") {
    io.stdout(`${bridgeHelp()}\n`);
    return EXIT_OK;
  }
  if (args !== "run") {
    io.stderr(`${usageLine("npm start", args.problem)}\n`);
    return EXIT_USAGE;
  }
  return runBridge(env);
}
