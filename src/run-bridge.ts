// The bridge's run from configuration to exit code: what `main.ts` does, minus the exit itself,
// so that a test process can run it with an extra sink and see the code main would exit with.
import { App } from "./app.js";
import { ConfigError, loadConfig } from "./config/load-config.js";
import type { Sink } from "./engine/sink.js";
import { EXIT_CONFIG } from "./exit-codes.js";
import { type RunVoice, runUntilStopped } from "./lifecycle.js";
import { createLogger, type Logger } from "./log/logger.js";
import { runRemoval } from "./run-removal.js";

/**
 * Runs the bridge until a signal stops it or it fails (or, asked to, its removal step instead);
 * resolves with the process's exit code.
 */
export async function runBridge(
  env: NodeJS.ProcessEnv,
  /**
   * `remove`: the removal step instead of the bridge (`--remove`, bridge-cli.ts); `force`: even
   * while another bridge holds the household lease (`--force`).
   */
  extra: { sink?: Sink; remove?: boolean; force?: boolean } = {},
): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env, undefined, { removal: extra.remove === true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    return EXIT_CONFIG;
  }
  const secrets = [
    config.options.api_token,
    config.homeAssistant?.token ?? "",
    config.broker.kind === "url" ? (config.broker.password ?? "") : "",
  ];
  const logger = createLogger({ level: config.options.log_level, secrets });
  if (extra.remove || config.options.remove_from_home_assistant)
    return removeOnce(config, logger, extra.force === true);
  const app = new App({ config, logger, ...(extra.sink ? { extraSink: extra.sink } : {}) });
  return runUntilStopped(app, { signals: ["SIGTERM", "SIGINT"], voice: bridgeVoice(logger) });
}

/** The removal step, stopped early by the same signals as the bridge. */
async function removeOnce(
  config: ReturnType<typeof loadConfig>,
  logger: Logger,
  force: boolean,
): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, onSignal);
  try {
    return await runRemoval(config, logger, stop.signal, { force });
  } finally {
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.off(signal, onSignal);
  }
}

/** The bridge tells everything in its log, which the add-on's Log tab shows. */
function bridgeVoice(logger: Logger): RunVoice {
  return {
    refused: (lines) => {
      for (const line of lines) logger.error(line);
    },
    stopping: (signal) => logger.info({ signal }, "stopping"),
    failed: (error) => {
      const reason = error instanceof Error ? error.message : String(error);
      logger.fatal(`the bridge failed and stops: ${reason}`);
      logger.debug({ err: error }, "the failure that stopped the bridge");
    },
    // Nothing more to say: the app has logged each part that failed to stop, and the Supervisor
    // needs no other exit code than the stop's (0 after SIGTERM).
    stopFailed: () => undefined,
    stopTooSlow: () => logger.warn("stop took too long; exiting anyway"),
  };
}
