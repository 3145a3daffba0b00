import { parseArgs } from "node:util";

/** A local time of day, `HH:MM`. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface DemoArgs {
  /** Simulated minutes per real minute. */
  speed: number;
  /** Where the household's clock starts, today. */
  start: TimeOfDay;
}

export const DEFAULT_SPEED = 60;
export const DEFAULT_START: TimeOfDay = { hour: 16, minute: 0 };

// npm passes on what follows one `--`: every flag goes after it, not a `--` each.
export const demoUsage = `Usage: npm run demo -- [--speed X] [--start HH:MM]

  --speed X      the household's clock runs X times faster than real time (default ${DEFAULT_SPEED})
  --start HH:MM  the household's time, today, when the demo starts (default 16:00)
  --help         this text

Set HA_URL and HA_TOKEN to publish to a Home Assistant as well, under its own names
(sensor.reward_facts_demo_…, reward_facts_demo_event), removed when the demo stops.`;

export class DemoArgsError extends Error {
  override name = "DemoArgsError";
}

/** Command-line arguments → demo settings, or "help"; a DemoArgsError names the bad argument. */
export function parseDemoArgs(args: readonly string[]): DemoArgs | "help" {
  let values: { speed?: string | undefined; start?: string | undefined; help?: boolean | undefined };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        speed: { type: "string" },
        start: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new DemoArgsError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return "help";
  const speed = values.speed === undefined ? DEFAULT_SPEED : Number(values.speed);
  // Past an hour a second, the bridge's 15 s readings would skip whole evenings.
  if (values.speed?.trim() === "" || !(speed >= 1 && speed <= 3_600)) {
    throw new DemoArgsError(`--speed must be a number from 1 to 3600, got ${values.speed}`);
  }
  return { speed, start: values.start === undefined ? DEFAULT_START : parseTimeOfDay(values.start) };
}

function parseTimeOfDay(text: string): TimeOfDay {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) throw new DemoArgsError(`--start must be HH:MM, got ${text}`);
  return { hour, minute };
}
