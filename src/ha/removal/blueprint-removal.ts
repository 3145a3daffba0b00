import type { Logger } from "../../log/logger.js";
import type { CommandLink } from "../link/command-link.js";
import { BLUEPRINT_SOURCE, BRIDGE_BLUEPRINT_FOLDER } from "../parts/bridge-blueprints.js";

/**
 * The removal's share of the bridge's blueprints (parts/bridge-blueprints.ts): each it saved in
 * its folder is deleted, unless automations still use it (Home Assistant refuses: said, and left)
 * or a person changed it (no longer the bridge's source). Returns how many went.
 */
export async function removeBridgeBlueprints(link: CommandLink, logger: Logger): Promise<number> {
  const listed = await link.command<Record<string, { metadata?: { source_url?: string } }>>({
    type: "blueprint/list",
    domain: "automation",
  });
  let removed = 0;
  for (const [path, entry] of Object.entries(listed)) {
    if (!path.startsWith(`${BRIDGE_BLUEPRINT_FOLDER}/`)) continue;
    if (!entry.metadata?.source_url?.startsWith(`${BLUEPRINT_SOURCE}/`)) continue;
    try {
      await link.command({ type: "blueprint/delete", domain: "automation", path });
      removed++;
    } catch (error) {
      logger.warn(
        { blueprint: path, reason: (error as Error).message },
        "a blueprint of the bridge is left in Home Assistant: automations use it (delete them first, then the blueprint in Settings → Blueprints)",
      );
    }
  }
  return removed;
}
