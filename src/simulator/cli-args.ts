import { parseArgs } from "node:util";
import { realClock, ScaledClock, type SimClock } from "./clock.js";
import type { SimulatorOptions } from "./options.js";

export const cliUsage = `Usage: npm run simulator -- [--port N] [--seed S] [--speed X] [--start ISO] [--time-zone Z] [--facts-per-hour N]

Serves the demo household on 127.0.0.1 until Ctrl-C; its banner prints the base URLs, the
household's token (rf_api_…) and the children, to give a bridge.

  --port N            port on 127.0.0.1 (0 picks a free one; default 8787)
  --seed S            seed of the demo household (default 42)
  --speed X           simulated time runs X times faster than real time (default 1)
  --start ISO         simulated instant to start from (default now)
  --time-zone Z       the household's time zone (default Europe/Paris)
  --facts-per-hour N  extra cheers per hour and child, for busy journals (default 0)
  --help              this text`;

export class CliUsageError extends Error {
  override name = "CliUsageError";
}

/** Whether the arguments ask for the usage (`--help`, `-h`), whatever else they hold. */
export function asksForHelp(args: readonly string[]): boolean {
  return args.some((arg) => arg === "--help" || arg === "-h");
}

/** Command-line arguments → simulator options; a CliUsageError names the bad argument. */
export function parseCliArgs(args: readonly string[], baseClock: SimClock = realClock): SimulatorOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        port: { type: "string" },
        seed: { type: "string" },
        speed: { type: "string" },
        start: { type: "string" },
        "time-zone": { type: "string" },
        "facts-per-hour": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const number = (name: string, fallback: number): number => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (typeof raw !== "string" || raw.trim() === "" || !Number.isFinite(value)) {
      throw new CliUsageError(`--${name} must be a number, got ${String(raw)}`);
    }
    return value;
  };
  const speed = number("speed", 1);
  const start = values.start;
  if (typeof start === "string" && Number.isNaN(Date.parse(start))) {
    throw new CliUsageError(`--start must be an ISO 8601 instant, got ${start}`);
  }
  if (!(speed > 0)) throw new CliUsageError(`--speed must be positive, got ${speed}`);
  const clock =
    speed === 1 && start === undefined
      ? baseClock
      : new ScaledClock({ speed, base: baseClock, ...(typeof start === "string" ? { start } : {}) });
  const timeZone = values["time-zone"];
  return {
    port: number("port", 8787),
    seed: number("seed", 42),
    clock,
    ...(typeof timeZone === "string" ? { timeZone } : {}),
    activity: { factsPerHour: number("facts-per-hour", 0) },
  };
}
