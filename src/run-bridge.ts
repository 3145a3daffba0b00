// The bridge's run from configuration to exit code: what `main.ts` does, minus the exit itself,
// so that a test process can run it with an extra sink and see the code main would exit with.
import { App } from "./app.js";
import { ConfigError, loadConfig } from "./config/load-config.js";
import { type Sink, SinkRefusedError } from "./engine/sink.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "./exit-codes.js";
import { createLogger, type Logger } from "./log/logger.js";

/** Runs the bridge until a signal stops it or it fails; resolves with the process's exit code. */
export async function runBridge(env: NodeJS.ProcessEnv, extra: { sink?: Sink } = {}): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
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
  const app = new App({ config, logger, ...(extra.sink ? { extraSink: extra.sink } : {}) });

  const stopRequested = new Promise<string>((resolve) => {
    // `on`, not `once`: under npm a Ctrl-C arrives twice, and a second default handler would exit 130.
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => resolve(signal));
  });
  try {
    await Promise.race([app.start(), stopRequested]);
  } catch (error) {
    await app.stop().catch(() => undefined);
    if (error instanceof SinkRefusedError) {
      logger.error(error.message);
      return EXIT_CONFIG;
    }
    if (error instanceof ConfigError) {
      for (const problem of error.problems) logger.error(problem);
      return EXIT_CONFIG;
    }
    throw error;
  }
  // Running: until a signal asks to stop, or the bridge fails on its own.
  const ended = await Promise.race([
    stopRequested.then((signal) => ({ signal })),
    app.failed.catch((error: unknown) => ({ error })),
  ]);
  if ("error" in ended) {
    const reason = ended.error instanceof Error ? ended.error.message : String(ended.error);
    logger.fatal(`the bridge failed and stops: ${reason}`);
    logger.debug({ err: ended.error }, "the failure that stopped the bridge");
    await stopWithin(app, logger);
    return EXIT_FAILURE;
  }
  logger.info({ signal: ended.signal }, "stopping");
  await stopWithin(app, logger);
  return EXIT_OK;
}

/** Stops the app, but exits anyway when that takes longer than the Supervisor waits. */
async function stopWithin(app: App, logger: Logger): Promise<void> {
  const stopped = await Promise.race([
    app.stop().then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
  ]);
  if (!stopped) logger.warn("stop took too long; exiting anyway");
}
