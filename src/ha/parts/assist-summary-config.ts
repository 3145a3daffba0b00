import type { Texts } from "../texts/texts.js";
import { templateData, type VoiceChild } from "./voice-children.js";

// The script the bridge keeps for assistants (assist-answers.ts keeps it): exposed to Assist, it
// is a tool LLM conversation agents and MCP clients call, and its response gives them what states
// alone do not: per child the minutes left, the session and its end, points, streak, the
// behaviors left today (mandatory first), whether screens are allowed and why not, and when it was
// read. Field `child` (a first name) for one child; none for every child. Pure.

const SUMMARY = [
  "{%- set wanted = (child | default('') | string | slugify) -%}",
  "{%- set ns = namespace(out=[]) -%}",
  "{%- for c in data.children if not wanted or (c.name | slugify) == wanted -%}",
  "{%- set m = states(c.minutes) -%}",
  "{%- set readable = m not in ['unavailable', 'unknown'] -%}",
  "{%- set items = state_attr(c.behaviors, 'items') or [] -%}",
  "{%- set left = items | rejectattr('status', 'eq', 'validated') | list -%}",
  "{%- set ordered = (left | selectattr('mandatory') | list) + (left | rejectattr('mandatory') | list) -%}",
  "{%- set read = state_attr(c.minutes, 'last_read') -%}",
  "{%- set ns.out = ns.out + [{",
  "'name': c.name,",
  "'readable': readable,",
  "'reason': none if readable else state_attr(c.reason, 'reason'),",
  "'reason_kind': none if readable else state_attr(c.reason, 'reason_kind'),",
  "'at_other_home_today': is_state(c.my_day, 'off'),",
  "'minutes_left': m | int(none) if readable else none,",
  "'session_running': is_state(c.session, 'on'),",
  "'session_ends_at': states(c.ends) if is_state(c.session, 'on') else none,",
  "'points': states(c.points) | int(none),",
  "'max_points': state_attr(c.points, 'max_points'),",
  "'streak_days': states(c.streak) | int(none),",
  "'behaviors_left_today': ordered | map(attribute='label') | list,",
  "'mandatory_left_today': ordered | selectattr('mandatory') | map(attribute='label') | list,",
  "'screen_time_allowed': is_state(c.allowed, 'on'),",
  "'why_not': state_attr(c.allowed, 'why_not'),",
  "'read_at': read,",
  "'stale': read is none or (as_timestamp(now()) - as_timestamp(read, 0)) > data.stale_after or states(data.status) in ['api_unreachable', 'token_invalid'],",
  "}] -%}",
  "{%- endfor -%}",
  "{{ {'children': ns.out, 'bridge_status': states(data.status)} }}",
].join("\n");

export interface AssistSummaryInput {
  texts: Texts;
  children: readonly VoiceChild[];
  status: string;
  staleAfterSeconds: number;
}

export function assistSummaryScript(input: AssistSummaryInput): Record<string, unknown> {
  const data = { children: input.children, status: input.status, stale_after: input.staleAfterSeconds };
  return {
    alias: input.texts.voice.summary_name,
    description: input.texts.voice.summary_description,
    icon: "mdi:account-child-circle",
    mode: "parallel",
    fields: {
      child: {
        name: input.texts.voice.summary_child,
        description: input.texts.voice.summary_child,
        required: false,
        selector: { text: {} },
      },
    },
    sequence: [
      { variables: { data: `{{ ${templateData(data)} }}` } },
      { variables: { summary: SUMMARY } },
      { stop: "The children's figures", response_variable: "summary" },
    ],
  };
}
