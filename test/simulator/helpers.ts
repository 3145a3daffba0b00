import { Writable } from "node:stream";
import { request } from "undici";
import { RewardFactsClient } from "../../src/api/client.js";
import { createLogger, type Logger } from "../../src/log/logger.js";
import { ApiSimulator, ManualClock, type SimulatorOptions } from "../../src/simulator/index.js";

/** Thursday 15 January 2026, 10:00 in Paris: a school day in winter (offset +01:00). */
export const START = "2026-01-15T09:00:00.000Z";
export const START_DAY = "2026-01-15";
export const START_DAY_BEGINS = "2026-01-15T00:00:00+01:00";

/** A simulator on a manual clock with no automatic activity: tests write the journal. */
export async function startQuiet(
  options: SimulatorOptions = {},
): Promise<{ sim: ApiSimulator; clock: ManualClock }> {
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock(START);
  const sim = await ApiSimulator.start({ activity: false, ...options, clock });
  return { sim, clock };
}

/** A JSON logger whose lines are kept. No secrets are given to it on purpose: nothing is scrubbed. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      lines.push(
        ...String(chunk)
          .split("\n")
          .filter((l) => l.trim() !== ""),
      );
      callback();
    },
  });
  return { logger: createLogger({ json: true, destination, level: "trace" }), lines };
}

export function newClient(
  sim: ApiSimulator,
  logger: Logger,
  overrides: Partial<ConstructorParameters<typeof RewardFactsClient>[0]> = {},
): RewardFactsClient {
  return new RewardFactsClient({ token: sim.tokens.household, baseUrl: sim.url, logger, ...overrides });
}

export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/** A GET with undici directly, to see the raw answer (and to send no token at all). */
export async function rawGet(url: string, token?: string): Promise<RawAnswer> {
  const response = await request(url, {
    method: "GET",
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const contentType = response.headers["content-type"];
  return {
    status: response.statusCode,
    contentType: typeof contentType === "string" ? contentType : undefined,
    headers: response.headers,
    text,
    json,
  };
}

/** Everything of an error that could end up in a log or a report. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return JSON.stringify(error);
  const cause = (error as { cause?: unknown }).cause;
  return [
    error.message,
    error.stack ?? "",
    JSON.stringify(error),
    JSON.stringify({ ...error }),
    String(error),
    cause === undefined ? "" : errorText(cause),
  ].join("\n");
}

/**
 * Waits in real time, without moving fake timers (vi.waitFor advances them at every check), until
 * `check` holds: for I/O over loopback while a test steps the timers itself. Fails after `maxMs`.
 */
export async function untilIo(check: () => boolean, maxMs = 5_000): Promise<void> {
  const since = performance.now();
  while (!check()) {
    if (performance.now() - since > maxMs) throw new Error(`condition not met within ${maxMs} ms`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
