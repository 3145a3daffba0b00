import { CONTRACT_PREFIX, type EntityNames } from "../entity-names.js";
import type { Texts } from "../texts/texts.js";
import { bridgeStatusText } from "./card-text.js";
import { type ChildCardOptions, childCards, type DashboardChild } from "./child-cards.js";
import { conditional, type LovelaceConfig } from "./lovelace.js";

export { DEFAULT_GAUGE_MAX } from "./gauge-top.js";

// The "Rewards" dashboard: children → Lovelace configuration. Pure; the writer saves it.

export interface DashboardInput {
  names: EntityNames;
  /** Its words, in the household's language. */
  texts: Texts;
  /** In the order they are shown (the order the API lists them). */
  children: readonly DashboardChild[];
  mode: ChildCardOptions["mode"];
}

/** Where the dashboard lives and how the sidebar shows it. */
export interface DashboardPlace {
  /** Its address (`/reward-facts`): Home Assistant wants a hyphen in it. */
  urlPath: string;
  title: string;
  icon: string;
}

/** The bridge's dashboard, or the demo's beside it (its own address and title). */
export function dashboardPlace(names: EntityNames, texts: Texts): DashboardPlace {
  const demo = names.prefix !== CONTRACT_PREFIX;
  return {
    urlPath: names.prefix.replace(/_/g, "-"),
    title: demo ? texts.dashboard.demo_title : texts.dashboard.title,
    icon: "mdi:star-face",
  };
}

export function buildDashboard(input: DashboardInput): LovelaceConfig {
  const { texts } = input;
  const options = { names: input.names, texts, mode: input.mode };
  const status = input.names.status;
  return {
    title: dashboardPlace(input.names, texts).title,
    views: [
      {
        title: texts.dashboard.today_view,
        path: "today",
        icon: "mdi:timer-sand",
        cards: [
          ...input.children.map((child) => childCards(child, options)),
          // Quiet while the bridge is fine; says so when it is not (and before it ever ran).
          conditional([{ condition: "state", entity: status, state_not: "ok" }], {
            type: "markdown",
            content: bridgeStatusText(texts, status),
          }),
        ],
      },
    ],
  };
}
