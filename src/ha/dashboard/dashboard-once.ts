import type { Logger } from "../../log/logger.js";
import { contractNames, EntityNames } from "../entities/entity-names.js";
import { homeAssistantLink } from "../link/home-assistant-link.js";
import { textsFor } from "../texts/texts.js";
import { buildDashboard, type DashboardPlace, dashboardPlace } from "./build-dashboard.js";
import { childrenInStates, type PublishedState } from "./children-in-states.js";
import { type DashboardOutcome, writeDashboard } from "./dashboard-writer.js";

// `npm run dashboard`'s one visit to Home Assistant: connect, read which children a running bridge
// has published there, write the Rewards dashboard for them, disconnect. A bridge with the
// `dashboard` option keeps its own on its lasting link instead (dashboard-keeper.ts).

export interface DashboardOnceOptions {
  url: string;
  /** A long-lived token of an administrator (only one may make a dashboard). */
  token: string;
  logger: Logger;
  /**
   * Prefixes of other namings whose ids fit the contract's pattern too (the demo's
   * `reward_facts_demo`): their children are not the bridge's.
   */
  besides: readonly string[];
  /** Gives up waiting for Home Assistant when it aborts. */
  signal: AbortSignal;
}

export type DashboardOnce =
  /** Home Assistant shows no child of the bridge: nothing was written. */
  | { outcome: "no_children" }
  | {
      outcome: DashboardOutcome;
      place: DashboardPlace;
      /** The children it shows, in its order. */
      firstNames: string[];
      /** How the bridge publishes them, as their entities tell. */
      mode: "rest" | "mqtt";
    };

/** Writes the bridge's dashboard once, for the children Home Assistant shows; rejects when it cannot. */
export async function writeDashboardOnce(options: DashboardOnceOptions): Promise<DashboardOnce> {
  // Only an administrator may make a dashboard.
  const connection = homeAssistantLink(
    { url: options.url, token: options.token, requireAdmin: true },
    { logger: options.logger, giveUpAtOnce: true },
  );
  try {
    await connection.open();
    await connection.whenReady(options.signal);
    const states = await connection.command<PublishedState[]>({ type: "get_states" });
    const others = options.besides.map((prefix) => new EntityNames(prefix));
    const { children, mode } = childrenInStates(states, contractNames, others);
    if (children.length === 0) return { outcome: "no_children" };
    // In Home Assistant's language, as the bridge writes it.
    const { texts } = textsFor(connection.language);
    const place = dashboardPlace(contractNames, texts);
    const config = buildDashboard({
      names: contractNames,
      texts,
      children,
      mode,
      haVersion: connection.haVersion,
    });
    const outcome = await writeDashboard(connection, place, config);
    return { outcome, place, firstNames: children.map((child) => child.firstName), mode };
  } finally {
    connection.close();
  }
}
