// `npm start -- --help`: the bridge's options and environment variables, printed from the tables
// the loader reads (option-table.ts) and the schema that owns the defaults (options-schema.ts).
import * as z from "../zod.js";
import { environmentTable, optionTable } from "./option-table.js";
import { type BridgeOptions, optionsSchema } from "./options-schema.js";

/** What --help says of an option's default: `30`, `info`, `10,5`, `required` or `none`. */
export function defaultText(key: keyof BridgeOptions): string {
  const parsed = z.safeParse(optionsSchema.shape[key] as z.ZodMiniType, undefined);
  if (!parsed.success) return "required";
  const value: unknown = parsed.data;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return "none";
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** The values an option of a fixed list takes (`auto|mqtt|rest`), read from the schema. */
function choicesOf(key: keyof BridgeOptions): string | undefined {
  const def = (optionsSchema.shape[key] as z.ZodMiniType)._zod.def as {
    innerType?: { _zod: { def: { entries?: Record<string, string> } } };
    entries?: Record<string, string>;
  };
  const entries = def.entries ?? def.innerType?._zod.def.entries;
  return entries ? Object.values(entries).join("|") : undefined;
}

export function bridgeHelp(): string {
  const options = (Object.keys(optionTable) as Array<keyof BridgeOptions>).flatMap((key) => {
    const row = optionTable[key];
    const choices = choicesOf(key);
    return [
      `  ${row.env}  (add-on option ${key}; ${defaultText(key) === "required" ? "required" : `default ${defaultText(key)}`})`,
      `      ${row.help}${choices ? `: ${choices}` : ""}`,
    ];
  });
  const variables = environmentTable.flatMap(({ name, help }) => [`  ${name}`, `      ${help}`]);
  return [
    "Usage: npm start -- [--remove] [--help]",
    "",
    "Runs the Reward Facts bridge until SIGTERM or SIGINT. In the add-on, the options come from its",
    "Configuration tab (the Supervisor writes /data/options.json); standalone, from these environment",
    "variables. A bad value stops the start with one line per problem and exit code 2.",
    "",
    "Options:",
    ...options,
    "",
    "Also read:",
    ...variables,
    "",
    "  --remove  instead of running, remove everything the bridge made in Home Assistant and the MQTT",
    "            broker (devices, entities, retained messages, states, delivery-record helpers, the",
    "            dashboard, notifications), say what was removed, and exit (0 when all of it went).",
    "            The same as REWARD_FACTS_REMOVE=true, or the add-on's remove_from_home_assistant.",
    "            Needs HA_URL and HA_TOKEN (and MQTT_URL… when the bridge published through MQTT);",
    "            never calls the Reward Facts API. The data directory is left as it is.",
    "  --help    this text",
  ].join("\n");
}
