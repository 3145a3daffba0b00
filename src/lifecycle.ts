// How a process entry runs what it starts, the bridge (src/main.ts) and the demo (src/demo/main.ts)
// alike: until a signal asks it to stop or it fails on its own, stopped within the time the
// Supervisor waits, with an exit code for each way it ends. Each entry only says it in its own
// words (RunVoice). exitWith holds the only process.exit of both (the container's health check,
// a process of its own, exits by itself).
import { ConfigError } from "./config/load-config.js";
import { SinkRefusedError } from "./engine/sink.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "./exit-codes.js";

/** What an entry runs: started in order, stopped in reverse, a stop during its start included. */
export interface Runnable {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Rejects when it fails on its own after start-up; never settles otherwise. */
  readonly failed?: Promise<never>;
}

/** What the run tells as it goes, where and how the entry tells things (the bridge's log, the demo's terminal). */
export interface RunVoice {
  /** Start-up was refused for what a person must fix (the configuration, a token): one line each. */
  refused(lines: readonly string[]): void;
  /** A stop was asked for: the signal's name, or another reason an entry gave (`EPIPE`). */
  stopping?(reason: string): void;
  /** It failed on its own after start-up, and is being stopped. */
  failed?(error: unknown): void;
  /** Its stop failed; the run still ends as it would have. */
  stopFailed?(error: unknown): void;
  /** Its stop took longer than the Supervisor allows: the process ends without waiting more. */
  stopTooSlow(): void;
  /** Stopped as asked. */
  stopped?(reason: string): void;
}

export interface RunOptions {
  /** The signals that ask for a stop. */
  signals: readonly NodeJS.Signals[];
  /** Another way a stop is asked for (the demo's output closing): given the function that asks. */
  stopOn?: (stop: (reason: string) => void) => void;
  voice: RunVoice;
}

/**
 * Starts `runnable` and runs it until a stop is asked for (during its start too) or it fails on its
 * own; resolves with the exit code. Rejects with what its start threw, when that is not a refusal
 * a person must fix: exitWith makes it an unexpected failure.
 */
export async function runUntilStopped(runnable: Runnable, options: RunOptions): Promise<number> {
  const { voice } = options;
  const stopAsked = new Promise<string>((resolve) => {
    // `on`, not `once`: Ctrl-C under npm and tsx arrives more than once (from the terminal and
    // relayed by each parent), and a signal with no listener left would exit at once with 130.
    for (const signal of options.signals) process.on(signal, () => resolve(signal));
    options.stopOn?.(resolve);
  });
  const starting = runnable.start();
  // A stop asked for during start-up wins the race below (the start then ends at its next step,
  // within the stop); a start failing after it is moot.
  starting.catch(() => undefined);
  try {
    await Promise.race([starting, stopAsked]);
  } catch (error) {
    await runnable.stop().catch(() => undefined);
    const lines = refusal(error);
    if (!lines) throw error;
    voice.refused(lines);
    return EXIT_CONFIG;
  }
  const ended = await Promise.race([
    stopAsked.then((reason) => ({ reason })),
    ...(runnable.failed ? [runnable.failed.catch((error: unknown) => ({ error }))] : []),
  ]);
  if ("error" in ended) {
    voice.failed?.(ended.error);
    await stopWithin(runnable, voice);
    return EXIT_FAILURE;
  }
  voice.stopping?.(ended.reason);
  await stopWithin(runnable, voice);
  voice.stopped?.(ended.reason);
  return EXIT_OK;
}

/**
 * Ends the process with the code `run` resolves with: the entries' only process.exit, so that every
 * other module throws and lets its entry choose. A run that rejects is an unexpected failure:
 * `<what>: <message>` on standard error, and EXIT_FAILURE.
 */
export function exitWith(run: Promise<number>, what: string): void {
  run.then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${what}: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(EXIT_FAILURE);
    },
  );
}

/** The lines a person must act on, when start-up was refused for a reason of theirs. */
function refusal(error: unknown): readonly string[] | undefined {
  if (error instanceof ConfigError) return error.problems;
  if (error instanceof SinkRefusedError) return [error.message];
  return undefined;
}

/** Stops, but no longer than the Supervisor waits after SIGTERM before it kills. */
async function stopWithin(runnable: Runnable, voice: RunVoice): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([
    runnable.stop().then(
      () => true,
      (error: unknown) => {
        voice.stopFailed?.(error);
        return true;
      },
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), STOP_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!stopped) voice.stopTooSlow();
}
