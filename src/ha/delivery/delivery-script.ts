// The websocket `execute_script` that delivers one fact: in one run inside Home Assistant
// it checks the child's delivery record, fires the bus event and writes the fact's id into the
// record. The record is therefore never behind what was fired while Home Assistant runs, and a
// fact whose delivery is in doubt (the bridge died, or the link dropped, before the answer came)
// is fired again only if the record shows it never arrived. Pure: builds messages, reads answers.

export interface DeliveryScriptInput {
  eventType: string;
  /** The event's data as the contract names it, without `redelivered` (the script decides it). */
  data: Record<string, unknown>;
  factId: string;
  /** The child's `input_text` that records the id of its last fired fact. */
  recordEntityId: string;
  /** Sent before without an answer: it may have arrived, and the record may be stale. */
  inDoubt: boolean;
  /** The record's `last_updated` after the child's last acknowledged fact (see below). */
  expectedStamp: string | undefined;
  /**
   * Marked redelivered whatever the record says: a fact Home Assistant answered before it died
   * and restored an older record (recent-deliveries.ts).
   */
  redelivered?: boolean;
  /** `action` for service calls from 2024.8, `service` before. */
  serviceKey: "action" | "service";
  /** Steps run before the bus event, in the same run: one list when redelivered, one otherwise. */
  beforeEvent?: { redelivered: unknown[]; otherwise: unknown[] };
  /**
   * The household lease this run must still hold (household-lease.ts): the fact is refused,
   * before anything else, when the helper names another run. None for the demo, which holds none.
   */
  lease?: { entityId: string; run: string };
}

export interface DeliveryScriptMessage {
  type: "execute_script";
  sequence: unknown[];
  variables: Record<string, unknown>;
}

/**
 * What the script answered: fired (with the record's new stamp), already there, refused, or
 * nothing (`unanswered`: Home Assistant ran no script to its end, see readDeliveryResult).
 */
export type DeliveryScriptResult =
  | { fired: true; stamp: string | undefined; redelivered: boolean }
  | { fired: false; refused?: "lease"; unanswered?: true };

// Home Assistant renders every string holding one of these as a template.
const TEMPLATE_DELIMITERS = /\{%|\{\{|\{#/;

/**
 * The message for one fact.
 *
 * `redelivered` is true for a fact sent again after Home Assistant lost what it had answered
 * (`redelivered` in the input), and for a fact in doubt whose record has changed since the bridge last
 * saw it (a restart of Home Assistant restored the record from its last save, which can be older
 * than what it fired before dying): the fact may then have arrived already, and automations can
 * skip it. A fact in doubt whose record is unchanged never fired, and goes out as new.
 */
export function deliveryScript(input: DeliveryScriptInput): DeliveryScriptMessage {
  const record = input.recordEntityId;
  if (!/^input_text\.[a-z0-9_]+$/.test(record)) throw new Error(`not an input_text entity id: ${record}`);
  // Entity ids can only be reached by attribute in templates; this one is checked above.
  const recordState = `states.${record}`;
  const { data, raw } = literalData(input.data);
  const { lease } = input;
  if (lease && !/^input_text\.[a-z0-9_]+$/.test(lease.entityId))
    throw new Error(`not an input_text entity id: ${lease.entityId}`);
  return {
    type: "execute_script",
    variables: {
      ...(lease ? { lease_entity: lease.entityId, lease_holder: `"run":"${lease.run}"` } : {}),
      record,
      fact_id: input.factId,
      in_doubt: input.inDoubt,
      expected: input.expectedStamp ?? "",
      resent: input.redelivered === true,
      raw,
    },
    // Every run ends at the one stop at the top, whose answer says what happened: Home Assistant
    // 2024.3 answers nothing for a stop inside an `if`, and a refusal read as "already there" would
    // lose the fact.
    sequence: [
      {
        variables: {
          // Another run holds the household lease: nothing is fired, and the answer says so.
          held: lease ? "{{ lease_holder in states(lease_entity) }}" : true,
        },
      },
      {
        variables: {
          // Already fired (the record names it): nothing to do.
          fire: "{{ held and states(record) != fact_id }}",
          redelivered:
            `{% set s = ${recordState} %}` +
            "{{ resent or (in_doubt and expected != '' and (s is none or s.last_updated.isoformat() != expected)) }}",
        },
      },
      {
        if: [{ condition: "template", value_template: "{{ fire }}" }],
        // biome-ignore lint/suspicious/noThenProperty: Home Assistant's `if` step spells it so; never awaited.
        then: [
          ...beforeEventSteps(input.beforeEvent),
          { event: input.eventType, event_data: { ...data, redelivered: "{{ redelivered }}" } },
          {
            [input.serviceKey]: "input_text.set_value",
            target: { entity_id: record },
            data: { value: input.factId },
          },
        ],
      },
      {
        variables: {
          receipt: {
            fired: "{{ fire }}",
            refused: "{{ not held }}",
            stamp: `{{ ${recordState}.last_updated.isoformat() if ${recordState} is not none else '' }}`,
            redelivered: "{{ redelivered }}",
          },
        },
      },
      { stop: "answered", response_variable: "receipt" },
    ],
  };
}

/** Literal steps for each value of `redelivered`: no template ever sees the family's words. */
function beforeEventSteps(steps: DeliveryScriptInput["beforeEvent"]): unknown[] {
  if (!steps || (steps.redelivered.length === 0 && steps.otherwise.length === 0)) return [];
  return [
    {
      if: [{ condition: "template", value_template: "{{ redelivered }}" }],
      // biome-ignore lint/suspicious/noThenProperty: Home Assistant's `if` step spells it so; never awaited.
      then: steps.redelivered,
      else: steps.otherwise,
    },
  ];
}

/**
 * Reads the `execute_script` result: `{context, response}`. Every run of the script ends at its
 * stop and answers; a result without an answer is a run Home Assistant did not let go to its end:
 * it blocks new scripts once it is stopping (an empty response), and stops those running. Whether
 * the fact fired is then unknown (`unanswered`), never "already there": read so, a fact sent as
 * Home Assistant began a clean restart was lost (restart-ha.test.ts on 2024.3.3, under load).
 */
export function readDeliveryResult(result: unknown): DeliveryScriptResult {
  const response = (result as { response?: unknown } | null)?.response;
  if (response === null || response === undefined || typeof response !== "object")
    return { fired: false, unanswered: true };
  const { fired, stamp, redelivered, refused } = response as {
    fired?: unknown;
    stamp?: unknown;
    redelivered?: unknown;
    refused?: unknown;
  };
  if (refused === true) return { fired: false, refused: "lease" };
  if (fired !== true) return { fired: false };
  return {
    fired: true,
    stamp: typeof stamp === "string" && stamp !== "" ? stamp : undefined,
    redelivered: redelivered === true,
  };
}

/**
 * The data as literal values, which Home Assistant passes through untouched, except strings that
 * look like templates (a label holding `{{`): those are read from a variable instead, so that they
 * arrive as written rather than rendered.
 */
function literalData(data: Record<string, unknown>): {
  data: Record<string, unknown>;
  raw: Record<string, unknown>;
} {
  const literal: Record<string, unknown> = {};
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === "string" && TEMPLATE_DELIMITERS.test(value)) {
      raw[key] = value;
      literal[key] = `{{ raw[${JSON.stringify(key)}] }}`;
    } else {
      literal[key] = value;
    }
  }
  return { data: literal, raw };
}
