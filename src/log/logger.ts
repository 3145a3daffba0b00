import { type Level, type Logger as PinoLogger, pino } from "pino";
import pretty from "pino-pretty";

export type Logger = PinoLogger;

/** The contract's log levels (the add-on's `list(trace|debug|info|notice|warning|error|fatal)`). */
export const logLevels = ["trace", "debug", "info", "notice", "warning", "error", "fatal"] as const;
export type LogLevel = (typeof logLevels)[number];

const pinoLevel: Record<LogLevel, Level> = {
  trace: "trace",
  debug: "debug",
  info: "info",
  notice: "info",
  warning: "warn",
  error: "error",
  fatal: "fatal",
};

export interface LoggerOptions {
  level?: LogLevel;
  /** Values that must never reach a log line (API token, Home Assistant token). */
  secrets?: readonly string[];
  /** Where lines go; standard output by default. */
  destination?: NodeJS.WritableStream;
  /** JSON lines instead of human ones (tests read them). */
  json?: boolean;
}

export const REDACTED = "[redacted]";

/** Replaces every occurrence of a secret in a text. Secrets shorter than 8 characters are ignored. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * Human lines for the add-on's log tab (time, level, message, context). Secrets are scrubbed from
 * the serialized line itself, so a token that slips into any field or error still never shows.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = options.secrets ?? [];
  const destination = options.destination ?? process.stdout;
  const stream = options.json
    ? destination
    : pretty({
        destination,
        sync: true,
        colorize: false,
        translateTime: "SYS:yyyy-mm-dd HH:MM:ss",
        ignore: "pid,hostname",
        singleLine: true,
      });
  return pino(
    {
      level: pinoLevel[options.level ?? "info"],
      base: undefined,
      hooks: { streamWrite: (line) => scrubSecrets(line, secrets) },
    },
    stream,
  );
}

/** A logger that drops everything, for code paths that take a logger but have nothing to say. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}
