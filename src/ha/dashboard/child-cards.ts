import type { EntityNames } from "../entities/entity-names.js";
import type { Texts } from "../texts/texts.js";
import {
  latestFactsText,
  otherHomeText,
  todayText,
  unreadableText,
  weekFillingText,
  whyNotText,
} from "./card-text.js";
import { DEFAULT_GAUGE_MAX } from "./gauge-top.js";
import {
  conditional,
  type LovelaceBadge,
  type LovelaceCard,
  type LovelaceCondition,
  whenState,
} from "./lovelace.js";

// One child's cards, from Home Assistant's own cards, each with the conditions under which it
// shows: which cards show follows the child's entities, so the same configuration serves every
// day: the day's cards while it is this household's day, a calm line on the other household's day,
// the reason while the child cannot be read. The layouts (a column here, sections in
// child-sections.ts) place them. Pure.

export interface DashboardChild {
  /** The `<child>` of the entity ids. */
  slug: string;
  firstName: string;
  /** The top of her minutes gauge (gauge-top.ts); DEFAULT_GAUGE_MAX until her day is read. */
  gaugeMax?: number | undefined;
}

export interface ChildCardOptions {
  names: EntityNames;
  /** The cards' words, in the household's language. */
  texts: Texts;
  /** MQTT mode has a read-status sensor for reasons. */
  mode: "rest" | "mqtt";
}

/** Minutes left from which the gauge is green, then yellow; red below. */
export const GAUGE_SEVERITY = { green: 30, yellow: 10, red: 0 } as const;

/** A card and when it shows (every condition holds; none: always). */
export interface ShownCard {
  card: LovelaceCard;
  when: LovelaceCondition[];
}

export interface ChildCardSet {
  /** The minutes left, the headline. */
  gauge: ShownCard;
  /** While a session runs, when it ends. */
  sessionEnd: ShownCard;
  /** Points against the day's maximum, the streak, today's behaviors. */
  today: ShownCard;
  /** On this household's day, while screens are not allowed: why, in a sentence. */
  whyNot: ShownCard;
  /** Her latest facts, a diary in the household's language. */
  latestFacts: ShownCard;
  /** Minutes used per day over the last 7 days, from Home Assistant's statistics, once they hold days enough. */
  week: ShownCard;
  /** Until then, the days so far in words, and that the chart fills day by day. */
  weekFilling: ShownCard;
  otherHome: ShownCard;
  unreadable: ShownCard;
  /** Her points and streak, small, beside her name (a heading card's badges). */
  badges: LovelaceBadge[];
  /** Her minutes left under her first name, for the top of a view (a view's badge). */
  minutesBadge: LovelaceBadge;
}

/** How many days back the week's chart reaches: a bar for each of them, and one for today so far. */
export const WEEK_DAYS = 7;

export function childCardSet(child: DashboardChild, options: ChildCardOptions): ChildCardSet {
  const { names, mode, texts } = options;
  const words = texts.dashboard;
  const id = {
    minutes: names.child(child.slug, "minutes_remaining"),
    consumed: names.child(child.slug, "minutes_consumed"),
    myDay: names.child(child.slug, "my_day"),
    sessionRunning: names.child(child.slug, "session_running"),
    sessionEndsAt: names.child(child.slug, "session_ends_at"),
    points: names.child(child.slug, "points"),
    streak: names.child(child.slug, "streak"),
    behaviors: names.child(child.slug, "behaviors"),
    allowed: names.child(child.slug, "screen_time_allowed"),
    period: names.child(child.slug, "period"),
    week: names.childExtra(child.slug, "screen_time_days"),
  };
  const myDay = whenState(id.myDay, "on");
  // REST-made states carry the reason themselves; MQTT entities are plainly unavailable, their
  // reason is on the read-status sensor.
  const reasonFrom = mode === "mqtt" ? names.childExtra(child.slug, "read_status") : id.minutes;
  const badge = (entity: string): LovelaceBadge => ({ type: "entity", entity, visibility: [myDay] });
  return {
    gauge: {
      when: [myDay],
      card: {
        type: "gauge",
        entity: id.minutes,
        name: words.minutes_left,
        min: 0,
        max: child.gaugeMax ?? DEFAULT_GAUGE_MAX,
        // Without a needle the arc takes the colour of the minutes left: green, yellow, red.
        severity: { ...GAUGE_SEVERITY },
      },
    },
    sessionEnd: {
      when: [whenState(id.sessionRunning, "on")],
      card: {
        type: "entities",
        entities: [{ entity: id.sessionEndsAt, name: words.session_ends, format: "relative" }],
      },
    },
    today: { when: [myDay], card: { type: "markdown", content: todayText(texts, id) } },
    whyNot: {
      when: [myDay, whenState(id.allowed, "off")],
      card: { type: "markdown", content: whyNotText(texts, child.firstName, id.allowed) },
    },
    // The bridge's diary of her facts, in both modes (not the journal's logbook, which reads
    // like a log: raw types, delivery times, a row again after each restart).
    latestFacts: {
      when: [myDay],
      card: {
        type: "markdown",
        title: words.latest_facts,
        content: latestFactsText(texts, names.childExtra(child.slug, "latest_facts")),
      },
    },
    week: {
      // Either day, as long as she is read: the week is hers at both homes' days alike.
      when: [whenState(id.myDay, ["on", "off"]), whenState(id.week, "chart")],
      card: {
        type: "statistics-graph",
        title: words.week,
        entities: [id.consumed],
        // The day's rise of the total (a counter back to 0 at midnight counts as a new start).
        stat_types: ["change"],
        period: "day",
        days_to_show: WEEK_DAYS,
        chart_type: "bar",
        hide_legend: true,
      },
    },
    weekFilling: {
      when: [whenState(id.myDay, ["on", "off"]), whenState(id.week, "filling")],
      card: { type: "markdown", title: words.week, content: weekFillingText(texts, id.week) },
    },
    otherHome: {
      when: [whenState(id.myDay, "off")],
      card: { type: "markdown", content: otherHomeText(texts, child.firstName) },
    },
    // Unavailable, or not there at all yet (a condition reads a missing entity as unavailable).
    unreadable: {
      when: [whenState(id.minutes, ["unavailable", "unknown"])],
      card: { type: "markdown", content: unreadableText(texts, child.firstName, reasonFrom) },
    },
    badges: [badge(id.points), badge(id.streak)],
    minutesBadge: { ...badge(id.minutes), name: child.firstName, show_name: true },
  };
}

/**
 * One child's column of the older (masonry) layout: her first name over the day's cards, each in a
 * conditional card, as releases before the sections layout show it.
 */
export function childColumn(child: DashboardChild, options: ChildCardOptions): LovelaceCard {
  const set = childCardSet(child, options);
  const shown = [
    set.gauge,
    set.whyNot,
    set.sessionEnd,
    set.today,
    set.latestFacts,
    set.otherHome,
    set.unreadable,
  ];
  return {
    type: "vertical-stack",
    title: child.firstName,
    cards: shown.flatMap((part) => (part ? [conditional(part.when, part.card)] : [])),
  };
}
