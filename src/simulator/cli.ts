// `npm run simulator -- [--port N]`: the demo household on 127.0.0.1:N until SIGINT or SIGTERM.
import { EXIT_USAGE, usageLine } from "../cli-usage.js";
import { asksForHelp, CliUsageError, cliUsage, parseCliArgs } from "./cli-args.js";
import { ApiSimulator } from "./index.js";

function describe(simulator: ApiSimulator, speed: string): string {
  const roles = Object.entries(simulator.children).map(
    ([role, child]) => `    ${role.padEnd(9)} ${child.firstName.padEnd(8)} ${child.id}`,
  );
  return [
    `Reward Facts API simulator: seed ${simulator.seed}, ${simulator.timeZone}${speed}`,
    `  base URL:         ${simulator.url}`,
    `  legacy base URL:  ${simulator.legacyUrl}`,
    `  token (household): ${simulator.tokens.household}`,
    `  token (other):     ${simulator.tokens.other}`,
    "  children (role, first name, id):",
    ...roles,
    "Stop with Ctrl-C.",
  ].join("\n");
}

async function run(): Promise<void> {
  if (asksForHelp(process.argv.slice(2))) {
    process.stdout.write(`${cliUsage}\n`);
    return;
  }
  let options: ReturnType<typeof parseCliArgs>;
  try {
    options = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`${usageLine("npm run simulator", error.message)}\n`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const simulator = await ApiSimulator.start(options);
  const speed = "speed" in simulator.clock ? `, time ×${String(simulator.clock.speed)}` : "";
  process.stdout.write(`${describe(simulator, speed)}\n`);
  const stop = (signal: NodeJS.Signals) => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    simulator.stop().then(
      () => process.stdout.write(`Simulator stopped (${signal}).\n`),
      (error: unknown) => {
        process.stderr.write(`Simulator did not stop cleanly: ${String(error)}\n`);
        process.exitCode = 1;
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

run().catch((error: unknown) => {
  process.stderr.write(
    `Simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
