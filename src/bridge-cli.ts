// The bridge's command line: `--help` prints the options (config/help.ts) and exits 0; `--remove`
// runs the removal step instead of the bridge (`--force`: even while another bridge still holds
// the household lease); any other argument is a mistake, reported in one line with exit code 2
// before anything starts, as is a Node.js line the bridge does not run on (node-line.ts).
// Everything else is configured by options and environment variables (run-bridge.ts).
import { parseArgs } from "node:util";
import { EXIT_USAGE, usageLine } from "./cli-usage.js";
import { bridgeHelp } from "./config/help.js";
import { EXIT_CONFIG, EXIT_OK } from "./exit-codes.js";
import { unsupportedNodeLine } from "./node-line.js";
import { runBridge } from "./run-bridge.js";

export interface BridgeCliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export type BridgeArgs =
  | "help"
  | { run: "bridge" }
  | { run: "removal"; force: boolean }
  | { problem: string };

/** What the arguments ask for, or the one-line problem of a bad argument. */
export function parseBridgeArgs(argv: readonly string[]): BridgeArgs {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        help: { type: "boolean", short: "h" },
        remove: { type: "boolean" },
        force: { type: "boolean" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) return "help";
    if (values.force && !values.remove) return { problem: "--force goes with --remove" };
    return values.remove ? { run: "removal", force: values.force === true } : { run: "bridge" };
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
  /** The Node.js running it (a test gives another). */
  nodeVersion: string = process.versions.node,
): Promise<number> {
  const args = parseBridgeArgs(argv);
  if (args === "help") {
    io.stdout(`${bridgeHelp()}\n`);
    return EXIT_OK;
  }
  if ("problem" in args) {
    io.stderr(`${usageLine("npm start", args.problem)}\n`);
    return EXIT_USAGE;
  }
  const unsupported = unsupportedNodeLine(nodeVersion);
  if (unsupported) {
    io.stderr(`${unsupported}\n`);
    return EXIT_CONFIG;
  }
  return runBridge(env, args.run === "removal" ? { remove: true, force: args.force } : {});
}
