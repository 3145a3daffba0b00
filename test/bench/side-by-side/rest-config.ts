import type { SideHousehold } from "./household.js";

export const BRIDGE_LOG = "bridge-facts.log";
export const REST_LOG = "rest-facts.log";

export interface UserConfig {
  extraConfig: string;
  automations: string;
}

/** Entity ids of the hand-written RESTful sensors for one child. */
export function restEntities(slug: string) {
  return {
    minutesRemaining: `sensor.rest_${slug}_minutes_remaining`,
    points: `sensor.rest_${slug}_points`,
    lastEvent: `sensor.rest_${slug}_last_event`,
  };
}

/**
 * What a user writes by hand to read the same facts with Home Assistant's own `rest` integration:
 * per child the today endpoint every 60 s and the events endpoint without a cursor (the newest
 * event of the page as the state), with the household token in a header. Beside it, the two
 * automations whose file notifiers record which facts reach automations through each path.
 */
export function userConfig(options: {
  household: SideHousehold;
  baseUrl: string;
  token: string;
  scanSeconds: number;
}): UserConfig {
  const { household, baseUrl, token, scanSeconds } = options;
  const q = JSON.stringify;
  const resources = household.children.flatMap((child) => {
    const slug = household.slugs.get(child.id) ?? child.id;
    const url = `${baseUrl}/children/${encodeURIComponent(child.id)}`;
    const common = [
      `    headers:`,
      `      Authorization: ${q(`Bearer ${token}`)}`,
      `    scan_interval: ${scanSeconds}`,
    ];
    return [
      `  - resource: ${q(`${url}/today`)}`,
      ...common,
      "    sensor:",
      `      - name: ${q(`rest ${slug} minutes remaining`)}`,
      `        value_template: ${q("{{ value_json.minutesRemaining }}")}`,
      `        unit_of_measurement: min`,
      `      - name: ${q(`rest ${slug} points`)}`,
      `        value_template: ${q("{{ value_json.points }}")}`,
      `  - resource: ${q(`${url}/events`)}`,
      ...common,
      "    sensor:",
      `      - name: ${q(`rest ${slug} last event`)}`,
      `        value_template: ${q("{{ value_json.events[-1].id if value_json.events else 'none' }}")}`,
    ];
  });
  const extraConfig = [
    "rest:",
    ...resources,
    "notify:",
    "  - platform: file",
    "    name: bridge_facts",
    `    filename: ${BRIDGE_LOG}`,
    "    timestamp: true",
    "  - platform: file",
    "    name: rest_facts",
    `    filename: ${REST_LOG}`,
    "    timestamp: true",
  ].join("\n");
  const lastEvents = household.children.map(
    (child) => restEntities(household.slugs.get(child.id) ?? child.id).lastEvent,
  );
  const automations = [
    "- id: fact_from_bridge",
    "  mode: queued",
    "  max: 5000",
    "  trigger: [{platform: event, event_type: reward_facts_event}]",
    '  action: [{service: notify.bridge_facts, data: {message: "{{ trigger.event.data.event_id }}"}}]',
    "- id: fact_from_rest",
    "  mode: queued",
    "  max: 5000",
    `  trigger: [{platform: state, entity_id: ${q(lastEvents)}}]`,
    '  action: [{service: notify.rest_facts, data: {message: "{{ trigger.to_state.state }}"}}]',
    "",
  ].join("\n");
  return { extraConfig, automations };
}
