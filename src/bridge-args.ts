import { parseArgs } from "node:util";

// The bridge's command line: everything else comes from the environment or the add-on's options
// (config/), so there is little here. npm passes on what follows one `--`.

export const bridgeUsage = `Usage: npm start -- [--remove] [--help]

Runs the Reward Facts bridge, configured by environment variables standalone (REWARD_FACTS_API_TOKEN,
REWARD_FACTS_API_BASE_URL, HA_URL, HA_TOKEN, MQTT_URL…; see DOCS.md) or by the add-on's options.

  --remove  instead of running, remove everything the bridge made in Home Assistant and the MQTT
            broker (devices, entities, retained messages, states, delivery-record helpers, the
            dashboard, notifications), say what was removed, and exit (0 when all of it went).
            The same as REWARD_FACTS_REMOVE=true, or the add-on's remove_from_home_assistant.
            Needs HA_URL and HA_TOKEN (and MQTT_URL… when the bridge published through MQTT);
            never calls the Reward Facts API. The data directory is left as it is.
  --help    this text`;

export type BridgeArgs = { help: true } | { help: false; remove: boolean };

export class BridgeArgsError extends Error {
  override name = "BridgeArgsError";
}

/** Command-line arguments → what the run does; a BridgeArgsError names a bad argument. */
export function parseBridgeArgs(args: readonly string[]): BridgeArgs {
  try {
    const { values } = parseArgs({
      args: [...args],
      options: { remove: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    });
    return values.help ? { help: true } : { help: false, remove: values.remove === true };
  } catch (error) {
    throw new BridgeArgsError(error instanceof Error ? error.message : String(error));
  }
}
