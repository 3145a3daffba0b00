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
  const whole = (name: string, fallback: number, min: number, max: number): number => {
    const value = number(name, fallback);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new CliUsageError(
        `--${name} must be a whole number from ${min} to ${max}, got ${String(values[name])}`,
      );
    return value;
  };
  // Checked here rather than left to listen() or the household: a bad value is the user's to fix (2).
  const port = whole("port", 8787, 0, 65_535);
  const seed = whole("seed", 42, 0, Number.MAX_SAFE_INTEGER);
  const factsPerHour = number("facts-per-hour", 0);
  if (!(factsPerHour >= 0))
    throw new CliUsageError(`--facts-per-hour must be 0 or more, got ${factsPerHour}`);
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
  if (typeof timeZone === "string" && !isTimeZone(timeZone))
    throw new CliUsageError(`--time-zone must be an IANA time zone such as Europe/Paris, got ${timeZone}`);
  return {
    port,
    seed,
    clock,
    ...(typeof timeZone === "string" ? { timeZone } : {}),
    activity: { factsPerHour },
  };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.trim() !== "";
  } catch {
    return false;
  }
}
