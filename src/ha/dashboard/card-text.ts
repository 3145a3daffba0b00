import type { UnavailableReason } from "../../engine/sink.js";
import { unavailableReasonKinds } from "../../engine/unavailable-reason.js";
import { fill, type Texts } from "../texts/texts.js";

// What the dashboard's markdown cards say, as Jinja templates Home Assistant renders: the day in a
// few lines, the other home's day, a child who cannot be read. Only what both 2024.3 and 2026
// allow in a markdown card (markdown, <ha-icon>, <ha-alert>, <br>); no emoji, which not every
// screen has a font for.

/** A Jinja string literal (JSON's double-quoted strings are valid Jinja). */
const literal = (text: string) => JSON.stringify(text);

/** A Jinja dict literal from a record of strings. */
const dict = (record: Record<string, string>) =>
  `{${Object.entries(record)
    .map(([key, value]) => `${literal(key)}: ${literal(value)}`)
    .join(", ")}}`;

const icon = (name: string) => `<ha-icon icon="${name}"></ha-icon>`;

/**
 * A child's first name as the template prints it: given to Jinja as a string, never as template
 * text (a name is the family's words, `{{` included), and HTML-escaped, as it may sit in an
 * attribute.
 */
const nameOf = (firstName: string) => `{{ ${literal(firstName)} | e }}`;

/** How a behavior's status reads. */
const statusWords = (texts: Texts): Record<string, string> => ({
  todo: texts.dashboard.behavior_todo,
  declared: texts.dashboard.behavior_declared,
  validated: texts.dashboard.behavior_validated,
  rejected: texts.dashboard.behavior_rejected,
});
const statusIcons: Record<string, string> = {
  todo: "mdi:checkbox-blank-circle-outline",
  declared: "mdi:progress-check",
  validated: "mdi:check-circle",
  rejected: "mdi:close-circle-outline",
};

/**
 * The period sensor's states in words: its state stays the contract's (`school`), which an MQTT
 * enum sensor cannot translate, so the dashboard says it.
 */
const periodWords = (texts: Texts): Record<string, string> => ({
  school: texts.dashboard.period_school,
  holiday: texts.dashboard.period_holiday,
  weekend: texts.dashboard.period_weekend,
});

/**
 * Points against the day's maximum, the streak and the period of the day, then today's
 * behaviors, a line each, with their status.
 */
export function todayText(
  texts: Texts,
  entities: { points: string; streak: string; behaviors: string; period: string },
): string {
  const words = texts.dashboard;
  return [
    `{%- set max = state_attr(${literal(entities.points)}, "max_points") -%}`,
    `{%- set items = state_attr(${literal(entities.behaviors)}, "items") or [] -%}`,
    `{%- set words = ${dict(statusWords(texts))} -%}`,
    `{%- set icons = ${dict(statusIcons)} -%}`,
    `{%- set period = ${dict(periodWords(texts))}.get(states(${literal(entities.period)}), "") -%}`,
    `${icon("mdi:star-circle")} **{{ states(${literal(entities.points)}) }}**` +
      `{{ ${literal(` ${words.points_of} `)} ~ max if max is not none else "" }} ${words.points}` +
      ` &nbsp; ${icon("mdi:fire")} **{{ states(${literal(entities.streak)}) }}**` +
      // "1 day", not "1 days": the streak is often 1 (its first day back).
      ` {{ ${literal(words.streak_day)} if states(${literal(entities.streak)}) == "1" else ${literal(words.streak_days)} }}` +
      `{% if period %} &nbsp; ${icon("mdi:calendar-today")} {{ period }}{% endif %}`,
    "{% if items %}",
    "",
    `**${words.today}**`,
    "",
    "{% for b in items -%}",
    `<ha-icon icon="{{ icons.get(b.status, "mdi:circle-outline") }}"></ha-icon> ` +
      `{{ b.label }}{{ ${literal(` *(${words.must})*`)} if b.mandatory else "" }} · {{ words.get(b.status, b.status) }}` +
      `{{ "<br>" if not loop.last else "" }}`,
    "{% endfor %}",
    "{%- endif %}",
  ].join("\n");
}

/** The other household's day: nothing is wrong, nothing to count here. */
export function otherHomeText(texts: Texts, firstName: string): string {
  return [
    `${icon("mdi:home-heart")} **${texts.dashboard.other_home_title}**`,
    "",
    fill(texts.dashboard.other_home_body, { child: nameOf(firstName) }),
  ].join("\n");
}

/**
 * Why screens are not allowed now, on this household's day: a sentence for the reason
 * `allowed`'s `why_not` gives (the other household's day has a card of its own). The child's name
 * goes in once, where the sentence says `{child}`.
 */
export function whyNotText(texts: Texts, firstName: string, allowed: string): string {
  const words = texts.dashboard;
  const sentences = {
    not_consumable_today: words.why_not_not_consumable_today,
    no_minutes_left: words.why_not_no_minutes_left,
  };
  return [
    `{%- set why = state_attr(${literal(allowed)}, "why_not") -%}`,
    `{%- set sentence = ${dict(sentences)}.get(why, "") -%}`,
    `{%- set parts = sentence.split("{child}") -%}`,
    `{% if sentence %}${icon("mdi:television-off")} {{ parts[0] }}${nameOf(firstName)}{{ parts[1:] | join("{child}") }}{% endif %}`,
  ].join("\n");
}

/** What a parent can do about each reason a child cannot be read. */
const advice = (texts: Texts): Record<UnavailableReason, string> => ({
  rules_not_synced: texts.dashboard.advice_rules_not_synced,
  not_covered: texts.dashboard.advice_not_covered,
  token_rejected: texts.dashboard.advice_token_rejected,
  api_unreachable: texts.dashboard.advice_api_unreachable,
  bridge_stopped: texts.dashboard.advice_bridge_stopped,
});

/**
 * A child who cannot be read: the bridge's reason in words (from `reasonFrom`'s `reason`
 * attribute) and what to do (by its `reason_kind`), as an information box for a child whose rules
 * are not synced yet (nothing is broken) and a warning otherwise. Also what shows before the
 * bridge first published.
 */
export function unreadableText(texts: Texts, firstName: string, reasonFrom: string): string {
  const words = texts.dashboard;
  const byKind = Object.fromEntries(unavailableReasonKinds.map((kind) => [kind, advice(texts)[kind]]));
  return [
    `{%- set reason = state_attr(${literal(reasonFrom)}, "reason") -%}`,
    `{%- set kind = state_attr(${literal(reasonFrom)}, "reason_kind") -%}`,
    `{%- set advice = ${dict(byKind)} -%}`,
    `<ha-alert alert-type="{{ "info" if kind == "rules_not_synced" else "warning" }}"` +
      ` title="${fill(words.child_reason, { child: nameOf(firstName), reason: `{{ reason or ${literal(words.not_read_yet)} }}` })}">`,
    `{{ advice.get(kind, ${literal(words.not_published_yet)}) }}`,
    "</ha-alert>",
  ].join("\n");
}

/**
 * The bridge's status when it is not `ok`, in the household's words: its `message` (a sentence the
 * bridge writes in the household's language), never the raw state (`token_invalid`) nor the last
 * error (the API's own words, in English, an address among them), which the log and the status's
 * attributes keep for whoever looks further.
 */
export function bridgeStatusText(texts: Texts, statusEntity: string): string {
  return [
    `<ha-alert alert-type="warning" title="${texts.dashboard.bridge_alert}">`,
    `{{ state_attr(${literal(statusEntity)}, "message") or ${literal(texts.dashboard.not_published_yet_bridge)} }}`,
    texts.dashboard.see_log,
    "</ha-alert>",
  ].join("\n");
}

/**
 * A child's latest facts, a line each with the fact's own time (the day too when it is not
 * today), from the diary the bridge keeps (fact-diary.ts): its lines are the household's words
 * already, escaped here as the family's words always are.
 */
export function latestFactsText(texts: Texts, diary: string): string {
  return [
    `{%- set facts = state_attr(${literal(diary)}, "facts") or [] -%}`,
    `{%- set today = now().strftime("%Y-%m-%d") -%}`,
    "{%- for f in facts -%}",
    `{%- set t = as_timestamp(f.at, 0) -%}`,
    `${icon("mdi:circle-small")}{{ f.text | e }} · ` +
      `{{ t | timestamp_custom("%H:%M") if t | timestamp_custom("%Y-%m-%d") == today else t | timestamp_custom("%d/%m %H:%M") }}` +
      `{{ "<br>" if not loop.last else "" }}`,
    "{% else %}",
    texts.diary.none_yet,
    "{%- endfor %}",
  ].join("\n");
}

/**
 * A child's screen time per day while Home Assistant's statistics cannot draw the week yet (a
 * fresh install): the chart fills day by day, and each day so far in words, from `days`
 * (screen-time-week.ts: the statistics' figure where there is one, the bridge's own readings else).
 */
export function weekFillingText(texts: Texts, days: string): string {
  const words = texts.dashboard;
  return [
    `{%- set days = state_attr(${literal(days)}, "days") or [] -%}`,
    `{%- set names = ${literal(words.weekdays)}.split(",") -%}`,
    `{%- set today = now().strftime("%Y-%m-%d") -%}`,
    `${icon("mdi:chart-timeline-variant")} ${words.week_filling}`,
    "",
    "{% for d in days -%}",
    `{{ ${literal(words.today)} if d.date == today else names[strptime(d.date, "%Y-%m-%d").weekday()] ~ " " ~ d.date[8:10] ~ "/" ~ d.date[5:7] }}` +
      ` · **{{ d.minutes }}** min{{ "<br>" if not loop.last else "" }}`,
    "{% endfor %}",
  ].join("\n");
}
