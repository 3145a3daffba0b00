import type { Texts } from "../texts/texts.js";
import { templateData, type VoiceChild } from "./voice-children.js";

// The automation the bridge keeps in Home Assistant so that Assist answers about the children out
// of the box, in the household's language (assist-answers.ts keeps it): "How many minutes does
// Léa have left?", "Is Léa's session running?", "What is Léa's streak?", "Why can't Léa use
// screens?", "Can Léa use screens?", and each asked by a child of herself ("How many minutes do I
// have left?"). Every answer is right for every child: at the other home today, waiting for the
// app, unreadable, or read too long ago (then it says when, and why). Pure.

/** The questions, each with its "I" form (`minutes_i`). */
export const QUESTIONS = ["minutes", "session", "streak", "why", "can"] as const;

export interface AssistAnswersInput {
  texts: Texts;
  children: readonly VoiceChild[];
  /** The bridge's status sensor: an API that cannot be reached, or refuses, makes every answer stale. */
  status: string;
  /** A reading older than this is said with its time (three readings of her day). */
  staleAfterSeconds: number;
}

/**
 * Who is asked about, then the answer for each: a child named, or for "I" the child whose device
 * is in the area of the satellite that heard it, else the child whose person is the asking user,
 * else every child, by name.
 */
const ANSWER = [
  "{%- set w = data.words -%}",
  "{%- set kind = trigger.id.split('_')[0] -%}",
  "{%- set me = trigger.id.endswith('_i') -%}",
  "{%- set ns = namespace(chosen=[]) -%}",
  "{%- macro say(text, c, minutes='', time='', days='', reason='') -%}",
  "{{ text.replace('{child}', c.name).replace('{minutes}', minutes | string).replace('{time}', time).replace('{days}', days | string).replace('{reason}', reason) }}",
  "{%- endmacro -%}",
  // One child's answer from her figures `f` (read at `read`); `why`, when given, says why they
  // are not newer: the answer then gives their time first.
  "{%- macro reply(c, f, read, why) -%}",
  "{%- if not f.my_day -%}{{ say(w.other_home, c) }}",
  "{%- else -%}",
  "{%- if why -%}{{ say(w.stale, c, time=(read | timestamp_custom('%H:%M'))) }} {% endif -%}",
  "{%- if kind == 'minutes' -%}{{ say(w.minutes_left, c, minutes=f.minutes) }}",
  "{%- elif kind == 'session' -%}",
  "{%- if f.session -%}{{ say(w.session_on, c, time=(as_timestamp(f.ends, 0) | timestamp_custom('%H:%M'))) }}",
  "{%- else -%}{{ say(w.session_off, c) }}{%- endif -%}",
  "{%- elif kind == 'streak' -%}{{ say(w.streak_days, c, days=f.streak) }}",
  "{%- elif f.allowed -%}{{ say(w.allowed, c, minutes=f.minutes) }}",
  "{%- elif f.why_not == 'not_consumable_today' -%}{{ say(w.not_consumable_today, c) }}",
  "{%- else -%}{{ say(w.no_minutes_left, c) }}",
  "{%- endif -%}",
  "{%- if why %} {{ why }}{%- endif -%}",
  "{%- endif -%}",
  "{%- endmacro -%}",
  "{%- macro answer(c) -%}",
  "{%- set status = states(data.status) -%}",
  "{%- set m = states(c.minutes) -%}",
  "{%- if m in ['unavailable', 'unknown'] -%}",
  // Unreadable: her last figures (kept by the bridge for this) with their time, else the reason.
  "{%- set reason_kind = state_attr(c.reason, 'reason_kind') -%}",
  "{%- set last = state_attr(c.reason, 'last_figures') -%}",
  "{%- set read = as_timestamp(state_attr(c.reason, 'last_read'), 0) -%}",
  "{%- set unreadable = say(w.unreadable, c, reason=(state_attr(c.reason, 'reason') or w.not_read_yet)) -%}",
  "{%- if reason_kind == 'rules_not_synced' -%}{{ say(w.not_synced, c) }}",
  "{%- elif last and read -%}{{ reply(c, last, read, {'api_unreachable': w.stale_unreachable, 'token_rejected': w.stale_refused}.get(reason_kind, unreadable)) }}",
  "{%- else -%}{{ unreadable }}{%- if read %} {{ say(w.last_read_at, c, time=(read | timestamp_custom('%H:%M'))) }}{%- endif -%}",
  "{%- endif -%}",
  "{%- else -%}",
  "{%- set f = {'my_day': not is_state(c.my_day, 'off'), 'minutes': m, 'session': is_state(c.session, 'on'), 'ends': states(c.ends), 'streak': states(c.streak), 'allowed': is_state(c.allowed, 'on'), 'why_not': state_attr(c.allowed, 'why_not')} -%}",
  "{%- set read = as_timestamp(state_attr(c.minutes, 'last_read'), 0) -%}",
  "{%- set stale = (as_timestamp(now()) - read) > data.stale_after or status in ['api_unreachable', 'token_invalid'] -%}",
  "{{ reply(c, f, read, ({'api_unreachable': w.stale_unreachable, 'token_invalid': w.stale_refused, 'rate_limited': w.stale_rate_limited}.get(status, w.stale_old)) if stale else '') }}",
  "{%- endif -%}",
  "{%- endmacro -%}",
  "{%- if me -%}",
  "{%- set here = area_id(trigger.device_id) if trigger.device_id | default(none) else none -%}",
  "{%- for c in data.children if here and area_id(c.minutes) == here -%}{%- set ns.chosen = ns.chosen + [c] -%}{%- endfor -%}",
  "{%- if not ns.chosen -%}",
  "{%- set uid = ((trigger.user_input | default({})).context | default({})).user_id | default(none) -%}",
  "{%- set people = (states.person | selectattr('attributes.user_id', 'eq', uid) | map(attribute='name') | map('slugify') | list) if uid else [] -%}",
  "{%- for c in data.children if (c.name | slugify) in people -%}{%- set ns.chosen = ns.chosen + [c] -%}{%- endfor -%}",
  "{%- endif -%}",
  "{%- if not ns.chosen -%}{%- set ns.chosen = data.children -%}{%- endif -%}",
  "{%- else -%}",
  "{%- for c in data.children if (c.name | slugify) == (trigger.slots.child | default('') | slugify) -%}{%- set ns.chosen = ns.chosen + [c] -%}{%- endfor -%}",
  "{%- endif -%}",
  "{%- if not ns.chosen -%}{{ w.unknown.replace('{child}', trigger.slots.child | default('')) }}",
  "{%- else -%}{%- for c in ns.chosen -%}{{ answer(c) }}{{ ' ' if not loop.last else '' }}{%- endfor -%}{%- endif -%}",
].join("\n");

/** The sentences of one question, as a conversation trigger takes them. */
const sentences = (texts: Texts, key: keyof Texts["voice"]) => texts.voice[key].split("|");

/** The automation, in the syntax of 2024.10 and later (oldAutomationSyntax turns it back). */
export function assistAnswersAutomation(input: AssistAnswersInput): Record<string, unknown> {
  const { texts } = input;
  const words = Object.fromEntries(
    Object.entries(texts.voice).filter(
      ([key]) => !(QUESTIONS as readonly string[]).some((q) => key === q || key === `${q}_i`),
    ),
  );
  const data = {
    children: input.children,
    words,
    status: input.status,
    stale_after: input.staleAfterSeconds,
  };
  return {
    alias: texts.voice.automation_name,
    description:
      "Kept by the Reward Facts bridge (the `assist` option): rewritten when the children or the language change, removed by its removal step. Make your own from the assist_answers blueprint instead of editing this one.",
    mode: "parallel",
    triggers: QUESTIONS.flatMap((question) => [
      { trigger: "conversation", id: question, command: sentences(texts, question) },
      { trigger: "conversation", id: `${question}_i`, command: sentences(texts, `${question}_i`) },
    ]),
    conditions: [],
    actions: [{ variables: { data: `{{ ${templateData(data)} }}` } }, { set_conversation_response: ANSWER }],
  };
}

/**
 * The same automation in the syntax of releases before 2024.10: `trigger`/`platform`,
 * `condition`, `action`.
 */
export function oldAutomationSyntax(config: Record<string, unknown>): Record<string, unknown> {
  const { triggers, conditions, actions, ...rest } = config as {
    triggers: Array<Record<string, unknown>>;
    conditions: unknown[];
    actions: unknown[];
  };
  return {
    ...rest,
    trigger: triggers.map(({ trigger, ...keys }) => ({ platform: trigger, ...keys })),
    condition: conditions,
    action: actions,
  };
}
