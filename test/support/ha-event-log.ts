import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant.js";

// An automation that writes the id of every reward_facts_event it sees into a file, through
// Home Assistant's file notifier: a record kept by Home Assistant itself, across its restarts,
// of which facts reached automations and how many times.

const EVENT_LOG = "reward-events.log";

export const eventLogConfig: Required<Pick<StartHomeAssistantOptions, "automations" | "extraConfig">> = {
  automations: `
- id: log_reward_event
  mode: queued
  max: 100000
  trigger: [{platform: event, event_type: reward_facts_event}]
  action:
    - service: notify.reward_log
      data: {message: "{{ trigger.event.data.event_id }}"}
    - service: input_boolean.turn_on
      target: {entity_id: input_boolean.flag}
`,
  extraConfig: `
notify:
  - platform: file
    name: reward_log
    filename: ${EVENT_LOG}
`,
};

/** The event ids the automation logged, in order, repeats included. */
export async function loggedEventIds(ha: HomeAssistantInstance): Promise<string[]> {
  const text = await readFile(join(ha.configDir, EVENT_LOG), "utf8").catch(() => "");
  // The notifier starts the file with a header; ids are the lines shaped like ids.
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^[0-9a-f-]{36}$/.test(line));
}
