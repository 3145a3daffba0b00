import type { EntityNames } from "../entity-names.js";
import type { Texts } from "../texts/texts.js";
import { otherHomeText, todayText, unreadableText } from "./card-text.js";
import { DEFAULT_GAUGE_MAX } from "./gauge-top.js";
import { conditional, type LovelaceCard, whenState } from "./lovelace.js";

// One child's column of the dashboard, from Home Assistant's own cards. Which cards show follows
// the child's entities, so the same configuration serves every day: the day's cards while it is
// this household's day, a calm line on the other household's day, the reason while the child
// cannot be read. Pure.

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
  /** MQTT mode has the journal's event entity (its logbook) and a read-status sensor for reasons. */
  mode: "rest" | "mqtt";
}

/** Minutes left from which the gauge is green, then yellow; red below. */
export const GAUGE_SEVERITY = { green: 30, yellow: 10, red: 0 } as const;

export function childCards(child: DashboardChild, options: ChildCardOptions): LovelaceCard {
  const { names, mode, texts } = options;
  const words = texts.dashboard;
  const id = {
    minutes: names.child(child.slug, "minutes_remaining"),
    myDay: names.child(child.slug, "my_day"),
    sessionRunning: names.child(child.slug, "session_running"),
    sessionEndsAt: names.child(child.slug, "session_ends_at"),
    points: names.child(child.slug, "points"),
    streak: names.child(child.slug, "streak"),
    behaviors: names.child(child.slug, "behaviors"),
  };
  const myDay = whenState(id.myDay, "on");
  // REST-made states carry the reason themselves; MQTT entities are plainly unavailable, their
  // reason is on the read-status sensor.
  const reasonFrom = mode === "mqtt" ? names.childExtra(child.slug, "read_status") : id.minutes;
  const cards: LovelaceCard[] = [
    conditional([myDay], {
      type: "gauge",
      entity: id.minutes,
      name: words.minutes_left,
      min: 0,
      max: child.gaugeMax ?? DEFAULT_GAUGE_MAX,
      // Without a needle the arc takes the colour of the minutes left: green, yellow, red.
      severity: { ...GAUGE_SEVERITY },
    }),
    conditional([whenState(id.sessionRunning, "on")], {
      type: "entities",
      entities: [{ entity: id.sessionEndsAt, name: words.session_ends, format: "relative" }],
    }),
    conditional([myDay], { type: "markdown", content: todayText(texts, id) }),
  ];
  if (mode === "mqtt") {
    cards.push(
      conditional([myDay], {
        type: "logbook",
        title: words.latest_facts,
        entities: [names.childExtra(child.slug, "journal")],
        hours_to_show: 24,
      }),
    );
  }
  cards.push(
    conditional([whenState(id.myDay, "off")], {
      type: "markdown",
      content: otherHomeText(texts, child.firstName),
    }),
    // Unavailable, or not there at all yet (a conditional card reads a missing entity as unavailable).
    conditional([whenState(id.minutes, ["unavailable", "unknown"])], {
      type: "markdown",
      content: unreadableText(texts, child.firstName, reasonFrom),
    }),
  );
  return { type: "vertical-stack", title: child.firstName, cards };
}
