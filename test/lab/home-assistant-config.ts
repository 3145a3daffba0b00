import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface ConfigOptions {
  port: number;
  timeZone: string;
  /** YAML text of automations.yaml (old `trigger:`/`platform:`/`service:` syntax works). */
  automations?: string | undefined;
  /** YAML appended to configuration.yaml. */
  extraConfig?: string | undefined;
}

/**
 * Writes a configuration that loads only what the tests need. No `default_config:`: it pulls in
 * integrations that reach the network or want pip, which `--skip-pip` and an offline run forbid.
 */
export async function writeHomeAssistantConfig(dir: string, options: ConfigOptions): Promise<void> {
  // JSON strings are valid YAML scalars, which spares quoting rules for the time zone.
  const configuration = [
    "homeassistant:",
    "  name: Test",
    `  time_zone: ${JSON.stringify(options.timeZone)}`,
    "  unit_system: metric",
    "  latitude: 0",
    "  longitude: 0",
    "  elevation: 0",
    "http:",
    "  server_host: 127.0.0.1",
    `  server_port: ${options.port}`,
    "api:",
    "websocket_api:",
    "onboarding:",
    "input_boolean:",
    "  flag:",
    "    name: flag",
    "automation: !include automations.yaml",
    // Where the configuration API writes scripts (the bridge keeps one: parts/assist-answers.ts).
    "script: !include scripts.yaml",
    "",
  ].join("\n");
  const extra = options.extraConfig ? `\n${options.extraConfig.trimEnd()}\n` : "";
  await writeFile(join(dir, "configuration.yaml"), configuration + extra);
  // An empty include is `None` to HA's loader; an empty list is "no automations".
  const automations = options.automations?.trim() ? options.automations : "[]\n";
  await writeFile(join(dir, "automations.yaml"), automations);
  await writeFile(join(dir, "scripts.yaml"), "{}\n");
}
