import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant.js";

/*
 * An automation that writes every reward_facts_event it sees into a file: a record kept by Home
 * Assistant itself, across its restarts, of which facts reached automations, with what data, in
 * which order and how many times.
 *
 * Written by a shell_command, because it works alike on every release the tests run (the file
 * notifier is gone from YAML after 2024) and nothing is buffered inside Home Assistant: the
 * automation is queued, and each run waits for its command, which appends one line and exits.
 * A line is on disk before the next event is handled.
 *
 * A line is the event's data as JSON, base64-encoded: the shell_command renders its templated
 * arguments and splits them shell-style, which quotes in JSON would not survive. The command
 * runs in Home Assistant's working directory, its config dir (hass-process.ts), so the relative
 * file name lands there on every release, in a root or not.
 *
 * Old automation syntax: it must load on 2024.3 too.
 */

const EVENT_LOG = "reward-events.log";

export const eventLogConfig: Required<Pick<StartHomeAssistantOptions, "automations" | "extraConfig">> = {
  automations: `
- id: log_reward_event
  mode: queued
  max: 100000
  trigger: [{platform: event, event_type: reward_facts_event}]
  action:
    - service: shell_command.log_reward_event
      data: {line: "{{ trigger.event.data | tojson | base64_encode }}"}
    - service: input_boolean.turn_on
      target: {entity_id: input_boolean.flag}
`,
  extraConfig: `
shell_command:
  log_reward_event: /bin/sh -c 'echo "$0" >> ${EVENT_LOG}' {{ line }}
`,
};

/** The data of each reward_facts_event the automation logged, in order, repeats included. */
export async function loggedEvents(ha: HomeAssistantInstance): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(ha.configDir, EVENT_LOG), "utf8").catch(() => "");
  // Whole lines only: the last one may be in the middle of being written.
  const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n");
  return lines
    .filter((line) => line !== "")
    .map((line) => JSON.parse(Buffer.from(line, "base64").toString("utf8")) as Record<string, unknown>);
}

/** The event ids the automation logged, in order, repeats included. */
export async function loggedEventIds(ha: HomeAssistantInstance): Promise<string[]> {
  return (await loggedEvents(ha)).map((data) => String(data.event_id));
}
