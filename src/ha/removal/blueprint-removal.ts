import type { Logger } from "../../log/logger.js";
import type { CommandLink } from "../link/command-link.js";
import { isBridgeBlueprint, type ListedBlueprint } from "../parts/bridge-blueprints.js";

/**
 * The removal's share of the bridge's blueprints (parts/bridge-blueprints.ts): each it saved in
 * its folder is deleted, unless automations still use it (Home Assistant refuses: said, and left)
 * or a person made it theirs (renamed it). Returns how many went.
 */
export async function removeBridgeBlueprints(link: CommandLink, logger: Logger): Promise<number> {
  const listed = await link.command<Record<string, ListedBlueprint>>({
    type: "blueprint/list",
    domain: "automation",
  });
  let removed = 0;
  for (const [path, entry] of Object.entries(listed)) {
    if (!isBridgeBlueprint(path, entry)) continue;
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
