// `npm run demo`: the bridge against the built-in simulator's demo household, shown live. It runs
// as the bridge does (src/lifecycle.ts), and tells it on the terminal.
import { EXIT_USAGE, usageLine } from "../cli-usage.js";
import { EXIT_OK } from "../exit-codes.js";
import { exitWith, type RunVoice, runUntilStopped } from "../lifecycle.js";
import { Demo } from "./demo.js";
import { DemoArgsError, demoUsage, parseDemoArgs } from "./demo-args.js";

async function main(): Promise<number> {
  let args: ReturnType<typeof parseDemoArgs>;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DemoArgsError)) throw error;
    process.stderr.write(`${usageLine("npm run demo", error.message)}\n`);
    return EXIT_USAGE;
  }
  if (args === "help") {
    process.stdout.write(`${demoUsage}\n`);
    return EXIT_OK;
  }
  const demo = new Demo({
    ...args,
    env: process.env,
    output: process.stdout,
    errorOutput: process.stderr,
    // A terminal of no size (a pty nobody sized, as `script` makes without one) cannot hold a
    // frame: log-update would draw nothing at all there. Plain lines still work.
    interactive: process.stdout.isTTY === true && process.stdout.rows > 0 && process.stdout.columns > 0,
  });
  return runUntilStopped(demo, {
    // SIGHUP: the terminal was closed; the temporary store is still worth removing.
    signals: ["SIGTERM", "SIGINT", "SIGHUP"],
    // `npm run demo | head` closes the pipe: stop quietly instead of dying on EPIPE.
    stopOn: (stop) => process.stdout.on("error", () => stop("EPIPE")),
    voice: terminalVoice,
  });
}

/** The demo tells what goes wrong on standard error, and that it stopped on standard output. */
const terminalVoice: RunVoice = {
  refused: (lines) => {
    for (const line of lines) process.stderr.write(`${line}\n`);
  },
  stopFailed: (error) =>
    process.stderr.write(
      `the demo did not stop cleanly: ${error instanceof Error ? error.message : String(error)}\n`,
    ),
  stopTooSlow: () => process.stderr.write("the demo took too long to stop; exiting anyway\n"),
  stopped: (reason) => {
    if (reason !== "EPIPE") process.stdout.write(`Demo stopped (${reason}).\n`);
  },
};

exitWith(main(), "the demo failed");
