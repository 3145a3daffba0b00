// The little of Home Assistant's Lovelace configuration the dashboard uses: plain data, as
// `lovelace/config/save` takes it and DOCS shows it in YAML.

export type LovelaceCard = { type: string } & Record<string, unknown>;

/** A condition of a conditional card, of a card's or a badge's `visibility`, of a section's. */
export type LovelaceCondition = Record<string, unknown>;

/** A badge of a sections view, or of a heading card. */
export type LovelaceBadge = { type: string } & Record<string, unknown>;

/** A section of a sections view: a grid of cards, 12 columns wide per column it spans. */
export interface LovelaceSection {
  type: "grid";
  cards: LovelaceCard[];
  column_span?: number;
  visibility?: LovelaceCondition[];
}

interface ViewBase {
  title: string;
  path: string;
  icon?: string;
}

/** The older layout (masonry): cards placed in columns by the frontend. */
export interface MasonryView extends ViewBase {
  cards: LovelaceCard[];
}

/** The sections layout: badges on top, then sections side by side, stacked on a narrow screen. */
export interface SectionsView extends ViewBase {
  type: "sections";
  max_columns: number;
  badges?: LovelaceBadge[];
  sections: LovelaceSection[];
}

export type LovelaceView = MasonryView | SectionsView;

export interface LovelaceConfig {
  title: string;
  views: LovelaceView[];
}

/** A state condition, in the form both 2024.3 and 2026 read. */
export function whenState(entity: string, state: string | readonly string[]): LovelaceCondition {
  return { condition: "state", entity, state: typeof state === "string" ? state : [...state] };
}

/** A card shown only while every condition holds. */
export function conditional(conditions: LovelaceCondition[], card: LovelaceCard): LovelaceCard {
  return { type: "conditional", conditions, card };
}

/** A card of a section shown only while every condition holds (none: always). */
export function visibleWhen(conditions: LovelaceCondition[], card: LovelaceCard): LovelaceCard {
  return conditions.length > 0 ? { ...card, visibility: conditions } : card;
}
