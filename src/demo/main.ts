// `npm run demo`: the bridge against the built-in simulator's demo household, shown live. Like
// src/main.ts for the real bridge, the only place of the demo that exits.
import { ConfigError } from "../config/load-config.js";
import { SinkRefusedError } from "../engine/sink.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "../exit-codes.js";
import { Demo } from "./demo.js";
import { DemoArgsError, demoUsage, parseDemoArgs } from "./demo-args.js";

async function main(): Promise<number> {
  let args: ReturnType<typeof parseDemoArgs>;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DemoArgsError)) throw error;
    process.stderr.write(`${error.message}\n\n${demoUsage}\n`);
    return EXIT_CONFIG;
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

  const stopRequested = new Promise<string>((resolve) => {
    // `on`, not `once`: Ctrl-C under npm and tsx arrives more than once (from the terminal and
    // relayed by each parent), and a signal with no listener left would exit at once with 130.
    // SIGHUP: the terminal was closed; the temporary store is still worth removing.
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => resolve(signal));
    // `npm run demo | head` closes the pipe: stop quietly instead of dying on EPIPE.
    process.stdout.on("error", () => resolve("EPIPE"));
  });
  const starting = demo.start();
  // A stop asked for during start-up wins the race below; a start failing after it is moot.
  starting.catch(() => undefined);
  try {
    await Promise.race([starting, stopRequested]);
  } catch (error) {
    await demo.stop().catch(() => undefined);
    if (error instanceof ConfigError) {
      for (const problem of error.problems) process.stderr.write(`${problem}\n`);
      return EXIT_CONFIG;
    }
    if (error instanceof SinkRefusedError) {
      process.stderr.write(`${error.message}\n`);
      return EXIT_CONFIG;
    }
    throw error;
  }
  const signal = await stopRequested;
  const stopped = await Promise.race([
    demo.stop().then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
  ]);
  if (!stopped) process.stderr.write("the demo took too long to stop; exiting anyway\n");
  if (signal !== "EPIPE") process.stdout.write(`Demo stopped (${signal}).\n`);
  return EXIT_OK;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`the demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
