// How every command of the project answers a bad command-line value: one line on standard error,
// naming the command and where its flags are listed, and exit code 2 (EXIT_CONFIG), whether the
// command is the bridge, the demo, the simulator or a tool.
import { EXIT_CONFIG } from "./exit-codes.js";

/** The exit code of a bad command-line value, the same for every command. */
export const EXIT_USAGE = EXIT_CONFIG;

/** The most of a person's own argument a line echoes back: enough to recognise it. */
const ECHOED_MAX = 200;

/** `npm run simulator: --port must be … (npm run simulator -- --help lists the options)`. */
export function usageLine(command: string, problem: string): string {
  // node:util's parseArgs explains some mistakes over several lines, and quotes the argument
  // whole: an option of 100,000 characters came back whole.
  const oneLine = problem.replace(/\s*\n\s*/g, " ");
  const cut =
    oneLine.length > ECHOED_MAX ? `${oneLine.slice(0, ECHOED_MAX)}… (${oneLine.length} characters)` : oneLine;
  return `${command}: ${cut} (${command} -- --help lists the options)`;
}
