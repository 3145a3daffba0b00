// Process entry: configuration, the app, signals and exit codes. The only place that exits.
import { App } from "./app.js";
import { ConfigError, loadConfig } from "./config/load-config.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK, STOP_TIMEOUT_MS } from "./exit-codes.js";
import { HomeAssistantAuthError, HomeAssistantNotAdminError } from "./ha/errors.js";
import { createLogger } from "./log/logger.js";

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    for (const problem of error.problems) process.stderr.write(`${problem}\n`);
    return EXIT_CONFIG;
  }
  const secrets = [config.options.api_token, config.homeAssistant?.token ?? ""];
  const logger = createLogger({ level: config.options.log_level, secrets });
  const app = new App({ config, logger });

  const stopRequested = new Promise<string>((resolve) => {
    // `on`, not `once`: under npm a Ctrl-C arrives twice, and a second default handler would exit 130.
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => resolve(signal));
  });
  try {
    await Promise.race([app.start(), stopRequested]);
  } catch (error) {
    await app.stop().catch(() => undefined);
    if (error instanceof HomeAssistantAuthError || error instanceof HomeAssistantNotAdminError) {
      logger.error(error.message);
      return EXIT_CONFIG;
    }
    throw error;
  }
  const signal = await stopRequested;
  logger.info({ signal }, "stopping");
  const stopped = await Promise.race([
    app.stop().then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS).unref()),
  ]);
  if (!stopped) logger.warn("stop took too long; exiting anyway");
  return EXIT_OK;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FAILURE);
  },
);
