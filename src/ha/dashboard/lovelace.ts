// The little of Home Assistant's Lovelace configuration the dashboard uses: plain data, as
// `lovelace/config/save` takes it and DOCS shows it in YAML.

export type LovelaceCard = { type: string } & Record<string, unknown>;

export interface LovelaceView {
  title: string;
  path: string;
  icon?: string;
  cards: LovelaceCard[];
}

export interface LovelaceConfig {
  title: string;
  views: LovelaceView[];
}

/** A state condition of a conditional card, in the form both 2024.3 and 2026 read. */
export function whenState(entity: string, state: string | readonly string[]): Record<string, unknown> {
  return { condition: "state", entity, state: typeof state === "string" ? state : [...state] };
}

/** A card shown only while every condition holds. */
export function conditional(conditions: Record<string, unknown>[], card: LovelaceCard): LovelaceCard {
  return { type: "conditional", conditions, card };
}
