import { CONTRACT_PREFIX, type EntityNames } from "../entities/entity-names.js";
import type { Texts } from "../texts/texts.js";
import { bridgeStatusText } from "./card-text.js";
import { type ChildCardOptions, childCardSet, childColumn, type DashboardChild } from "./child-cards.js";
import { childSection, childView } from "./child-sections.js";
import { dashboardLayout } from "./layout.js";
import {
  conditional,
  type LovelaceCard,
  type LovelaceCondition,
  type LovelaceConfig,
  type LovelaceView,
} from "./lovelace.js";

export { DEFAULT_GAUGE_MAX } from "./gauge-top.js";

// The "Rewards" dashboard: children → Lovelace configuration, in the layout the release draws
// (layout.ts). Pure; the writer saves it.

export interface DashboardInput {
  names: EntityNames;
  /** Its words, in the household's language. */
  texts: Texts;
  /** In the order they are shown (the order the API lists them). */
  children: readonly DashboardChild[];
  mode: ChildCardOptions["mode"];
  /** Home Assistant's version, which decides the layout; the older layout while unknown. */
  haVersion?: string | undefined;
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

/** The Today view's address in the dashboard. */
export const TODAY_PATH = "today";

/** The sections side by side at most on the Today view: one per child, up to four. */
const MAX_COLUMNS = 4;

export function buildDashboard(input: DashboardInput): LovelaceConfig {
  const place = dashboardPlace(input.names, input.texts);
  const views =
    dashboardLayout(input.haVersion) === "sections" ? sectionsViews(input, place) : [masonryView(input)];
  return { title: place.title, views };
}

/** Quiet while the bridge is fine; says so when it is not (and before it ever ran). */
function bridgeStatus(input: DashboardInput): { when: LovelaceCondition[]; card: LovelaceCard } {
  return {
    when: [{ condition: "state", entity: input.names.status, state_not: "ok" }],
    card: { type: "markdown", content: bridgeStatusText(input.texts, input.names.status) },
  };
}

/** The older layout: a column per child, then the bridge's status. */
function masonryView(input: DashboardInput): LovelaceView {
  const status = bridgeStatus(input);
  return {
    title: input.texts.dashboard.today_view,
    path: TODAY_PATH,
    icon: "mdi:timer-sand",
    cards: [
      ...input.children.map((child) => childColumn(child, input)),
      conditional(status.when, status.card),
    ],
  };
}

/**
 * The sections layout: the Today view (each child's minutes as badges on top; the bridge's status
 * across the width when it is not ok; a section per child, side by side, stacked on a phone), then
 * a view of each child's own for a wall tablet.
 */
function sectionsViews(input: DashboardInput, place: DashboardPlace): LovelaceView[] {
  const columns = Math.min(Math.max(input.children.length, 1), MAX_COLUMNS);
  const status = bridgeStatus(input);
  const today: LovelaceView = {
    title: input.texts.dashboard.today_view,
    path: TODAY_PATH,
    icon: "mdi:timer-sand",
    type: "sections",
    max_columns: columns,
    badges: input.children.map((child) => childCardSet(child, input).minutesBadge),
    sections: [
      { type: "grid", column_span: columns, visibility: status.when, cards: [status.card] },
      ...input.children.map((child) => childSection(child, input, `/${place.urlPath}/${child.slug}`)),
    ],
  };
  return [today, ...input.children.map((child) => childView(child, input))];
}
