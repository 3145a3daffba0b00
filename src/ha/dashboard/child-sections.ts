import {
  type ChildCardOptions,
  type ChildCardSet,
  childCardSet,
  type DashboardChild,
  type ShownCard,
} from "./child-cards.js";
import { type LovelaceCard, type LovelaceSection, type SectionsView, visibleWhen } from "./lovelace.js";

// One child in the sections layout: her section of the Today view, and her own view for a wall
// tablet. Each card carries its conditions as `visibility`, the sections layout's own way. Pure.

const shown = (parts: ReadonlyArray<ShownCard | undefined>): LovelaceCard[] =>
  parts.flatMap((part) => (part ? [visibleWhen(part.when, part.card)] : []));

/** Her first name as a heading, with her points and streak as its badges. */
function heading(child: DashboardChild, set: ChildCardSet, link?: string): LovelaceCard {
  return {
    type: "heading",
    heading: child.firstName,
    heading_style: "title",
    badges: set.badges,
    // A chevron beside her name, to her own view.
    ...(link ? { tap_action: { action: "navigate", navigation_path: link } } : {}),
  };
}

/**
 * Her section of the Today view: her name (a link to her own view at `viewPath`, if given) with
 * her badges, the minutes left, the session's end, the day, the latest facts, the week; or the
 * other home's calm line, or why she cannot be read.
 */
export function childSection(
  child: DashboardChild,
  options: ChildCardOptions,
  viewPath?: string,
): LovelaceSection {
  const set = childCardSet(child, options);
  return {
    type: "grid",
    cards: [
      heading(child, set, viewPath),
      ...shown([
        set.gauge,
        set.whyNot,
        set.sessionEnd,
        set.today,
        set.latestFacts,
        set.otherHome,
        set.unreadable,
        set.week,
        set.weekFilling,
      ]),
    ],
  };
}

/**
 * Her own view (`/<dashboard>/<child>`), for a wall tablet: her cards only, in two sections side
 * by side on a tablet held landscape (each then the widest a section grows, so every card is
 * large): now (the minutes, the session, the day) and lately (the week, the facts).
 */
export function childView(child: DashboardChild, options: ChildCardOptions): SectionsView {
  const set = childCardSet(child, options);
  return {
    title: child.firstName,
    path: child.slug,
    type: "sections",
    max_columns: 2,
    sections: [
      {
        type: "grid",
        cards: [
          heading(child, set),
          ...shown([set.gauge, set.whyNot, set.sessionEnd, set.today, set.otherHome, set.unreadable]),
        ],
      },
      { type: "grid", cards: shown([set.week, set.weekFilling, set.latestFacts]) },
    ],
  };
}
