// `npm run dashboard`: makes (or brings up to date) the Rewards dashboard once, in the Home
// Assistant at HA_URL, for the children a running bridge has published there. For standalone
// bridges and to try it; the add-on does the same with its `dashboard` option.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { EXIT_USAGE, usageLine } from "../cli-usage.js";
import { EXIT_CONFIG, EXIT_FAILURE, EXIT_OK } from "../exit-codes.js";
import { DEMO_ENTITY_PREFIX, writeDashboardOnce } from "../ha/index.js";
import { createLogger } from "../log/logger.js";

export const dashboardUsage = `Usage: npm run dashboard -- [--help]

Makes the "Rewards" dashboard in Home Assistant (or brings it up to date) for the children the
bridge has published there, then exits. A dashboard someone has edited since is left as it is.

  HA_URL    Home Assistant's address, e.g. http://homeassistant.local:8123
  HA_TOKEN  a long-lived access token of an administrator

  --help    this text`;

export interface DashboardIo {
  env: NodeJS.ProcessEnv;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

/** How long Home Assistant may take to answer before the command gives up. */
const CONNECT_TIMEOUT_MS = 30_000;

/** The command: its exit code, never process.exit (2: bad arguments or settings, 1: nothing written). */
export async function main(argv: readonly string[], io: DashboardIo): Promise<number> {
  let help: boolean | undefined;
  try {
    ({
      values: { help },
    } = parseArgs({ args: [...argv], options: { help: { type: "boolean", short: "h" } }, strict: true }));
  } catch (error) {
    io.stderr(usageLine("npm run dashboard", (error as Error).message));
    return EXIT_USAGE;
  }
  if (help) {
    io.stdout(dashboardUsage);
    return EXIT_OK;
  }
  const url = io.env.HA_URL?.trim().replace(/\/+$/, "");
  const token = io.env.HA_TOKEN?.trim();
  const problems = [
    ...(url ? [] : ["HA_URL: required (e.g. http://homeassistant.local:8123)"]),
    ...(url && !/^https?:\/\/[^/\s]+/.test(url) ? ["HA_URL: must be an http:// or https:// URL"] : []),
    ...(token ? [] : ["HA_TOKEN: required (a long-lived token of an administrator)"]),
  ];
  if (problems.length > 0 || !url || !token) {
    for (const problem of problems) io.stderr(problem);
    return EXIT_CONFIG;
  }
  const logger = createLogger({ level: "error", secrets: [token] });
  try {
    const written = await writeDashboardOnce({
      url,
      token,
      logger,
      besides: [DEMO_ENTITY_PREFIX],
      signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS),
    });
    if (written.outcome === "no_children") {
      io.stderr(
        `no children of the bridge in Home Assistant at ${url} (no sensor.reward_facts_<child>_minutes_remaining): ` +
          "start the bridge first, then run this again",
      );
      return EXIT_FAILURE;
    }
    const { outcome, place, firstNames, mode } = written;
    if (outcome === "changed_by_user") {
      io.stderr(
        `the ${place.title} dashboard (${url}/${place.urlPath}) was changed in Home Assistant since the bridge ` +
          "wrote it: left as it is. Delete it in Settings → Dashboards to have it made again.",
      );
      return EXIT_FAILURE;
    }
    io.stdout(
      `${outcome} the ${place.title} dashboard for ${firstNames.join(", ")} (${mode} entities): ${url}/${place.urlPath}`,
    );
    return EXIT_OK;
  } catch (error) {
    io.stderr(`npm run dashboard: ${(error as Error).message}`);
    return EXIT_FAILURE;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2), {
    env: process.env,
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`npm run dashboard: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
