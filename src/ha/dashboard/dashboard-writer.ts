import type { CommandLink } from "../link/command-link.js";
import { HomeAssistantError } from "../link/errors.js";
import type { DashboardPlace } from "./build-dashboard.js";
import type { LovelaceConfig } from "./lovelace.js";
import { judge, marked } from "./marker.js";

// Writes the dashboard through Home Assistant's websocket (Lovelace storage mode): makes the
// dashboard if it is missing, saves the configuration unless someone changed it since the bridge
// wrote it.

interface DashboardItem {
  id: string;
  url_path: string;
  title?: string;
}

export type DashboardOutcome = "created" | "updated" | "unchanged" | "changed_by_user";

async function findDashboard(link: CommandLink, place: DashboardPlace): Promise<DashboardItem | undefined> {
  const dashboards = await link.command<DashboardItem[]>({ type: "lovelace/dashboards/list" });
  return dashboards.find((dashboard) => dashboard.url_path === place.urlPath);
}

/** The saved configuration; undefined when the dashboard has none yet. */
async function storedConfig(link: CommandLink, place: DashboardPlace): Promise<unknown> {
  try {
    return await link.command<unknown>({ type: "lovelace/config", url_path: place.urlPath });
  } catch (error) {
    if (error instanceof HomeAssistantError && error.code === "config_not_found") return undefined;
    throw error;
  }
}

export async function writeDashboard(
  link: CommandLink,
  place: DashboardPlace,
  config: LovelaceConfig,
): Promise<DashboardOutcome> {
  let created = false;
  const found = await findDashboard(link, place);
  if (!found) {
    await link.command({
      type: "lovelace/dashboards/create",
      url_path: place.urlPath,
      title: place.title,
      icon: place.icon,
      show_in_sidebar: true,
      require_admin: false,
      mode: "storage",
    });
    created = true;
  }
  const judgement = judge(await storedConfig(link, place), config);
  if (judgement === "changed") return "changed_by_user";
  // The sidebar's title is the dashboard's own, set when it was made: a new language renames it.
  const renamed = found !== undefined && found.title !== place.title;
  if (renamed)
    await link.command({ type: "lovelace/dashboards/update", dashboard_id: found.id, title: place.title });
  if (judgement === "same") return renamed ? "updated" : "unchanged";
  await link.command({ type: "lovelace/config/save", url_path: place.urlPath, config: marked(config) });
  return created ? "created" : "updated";
}

/**
 * Deletes the dashboard (the demo's, when it stops) unless someone changed it: false when it is
 * left, for that reason.
 */
export async function removeDashboard(link: CommandLink, place: DashboardPlace): Promise<boolean> {
  const dashboard = await findDashboard(link, place);
  if (!dashboard) return true;
  const stored = await storedConfig(link, place);
  if (stored !== undefined && judge(stored, { title: "", views: [] }) === "changed") return false;
  await link.command({ type: "lovelace/dashboards/delete", dashboard_id: dashboard.id });
  return true;
}
