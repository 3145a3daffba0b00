import type { UnavailableReason } from "../../engine/sink.js";
import { reasonText } from "../../engine/unavailable-reason.js";

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

/** How a behavior's status reads, and its icon. */
const statusWords: Record<string, string> = {
  todo: "to do",
  declared: "done, to check",
  validated: "validated",
  rejected: "not this time",
};
const statusIcons: Record<string, string> = {
  todo: "mdi:checkbox-blank-circle-outline",
  declared: "mdi:progress-check",
  validated: "mdi:check-circle",
  rejected: "mdi:close-circle-outline",
};

/** Points against the day's maximum and the streak, then today's behaviors, a line each, with their status. */
export function todayText(entities: { points: string; streak: string; behaviors: string }): string {
  return [
    `{%- set max = state_attr(${literal(entities.points)}, "max_points") -%}`,
    `{%- set items = state_attr(${literal(entities.behaviors)}, "items") or [] -%}`,
    `{%- set words = ${dict(statusWords)} -%}`,
    `{%- set icons = ${dict(statusIcons)} -%}`,
    `${icon("mdi:star-circle")} **{{ states(${literal(entities.points)}) }}**` +
      `{{ " of " ~ max if max is not none else "" }} points` +
      ` &nbsp; ${icon("mdi:fire")} **{{ states(${literal(entities.streak)}) }}**` +
      // "1 day", not "1 days": the streak is often 1 (its first day back).
      ` {{ "day" if states(${literal(entities.streak)}) == "1" else "days" }} in a row`,
    "{% if items %}",
    "",
    "**Today**",
    "",
    "{% for b in items -%}",
    `<ha-icon icon="{{ icons.get(b.status, "mdi:circle-outline") }}"></ha-icon> ` +
      `{{ b.label }}{{ " *(must)*" if b.mandatory else "" }} · {{ words.get(b.status, b.status) }}` +
      `{{ "<br>" if not loop.last else "" }}`,
    "{% endfor %}",
    "{%- endif %}",
  ].join("\n");
}

/** The other household's day: nothing is wrong, nothing to count here. */
export function otherHomeText(firstName: string): string {
  return [
    `${icon("mdi:home-heart")} **At the other home today**`,
    "",
    `${nameOf(firstName)}'s minutes and points are counted there today: nothing to do here.`,
  ].join("\n");
}

/** What a parent can do about each reason a child cannot be read. */
const advice: Record<UnavailableReason, string> = {
  rules_not_synced:
    "Open the app once on a parent's device; this card changes by itself once the rules arrive.",
  not_covered: "Remove the child from the bridge's children, or give it the token of the child's household.",
  token_rejected: "Create a new token in the app and give it to the bridge.",
  api_unreachable: "The bridge keeps trying by itself; its log tells more if this lasts.",
  bridge_stopped: "Start the Reward Facts add-on (or the bridge) again.",
};

/**
 * A child who cannot be read: the bridge's reason in words (from `reasonFrom`'s `reason`
 * attribute) and what to do, as an information box for a child whose rules are not synced yet
 * (nothing is broken) and a warning otherwise. Also what shows before the bridge first published.
 */
export function unreadableText(firstName: string, reasonFrom: string): string {
  const byReason = Object.fromEntries(
    (Object.keys(advice) as UnavailableReason[]).map((reason) => [reasonText(reason), advice[reason]]),
  );
  return [
    `{%- set reason = state_attr(${literal(reasonFrom)}, "reason") -%}`,
    `{%- set advice = ${dict(byReason)} -%}`,
    `<ha-alert alert-type="{{ "info" if reason == ${literal(reasonText("rules_not_synced"))} else "warning" }}"` +
      ` title="${nameOf(firstName)}: {{ reason or "not read yet" }}">`,
    `{{ advice.get(reason, ${literal("The bridge has not published this child's day yet, or is not running.")}) }}`,
    "</ha-alert>",
  ].join("\n");
}

/** The bridge's status when it is not `ok`. */
export function bridgeStatusText(statusEntity: string): string {
  return [
    `<ha-alert alert-type="warning" title="Reward Facts: {{ states(${literal(statusEntity)}) }}">`,
    `{{ state_attr(${literal(statusEntity)}, "last_error") or "See the bridge's log." }}`,
    "</ha-alert>",
  ].join("\n");
}
