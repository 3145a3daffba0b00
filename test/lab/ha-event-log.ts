import type { HomeAssistantInstance, StartHomeAssistantOptions } from "./home-assistant-types.js";

/*
 * An automation that logs every reward_facts_event it sees, with its data: a record kept by Home
 * Assistant itself, across its restarts, of which facts reached automations, with what data, in
 * which order and how many times.
 *
 * Written with system_log.write into Home Assistant's own log file (--log-file), under a logger
 * of its own, because that works alike on every release the tests run (the file notifier is gone
 * from YAML after 2024) and costs an automation run next to nothing: a slower writer (a
 * shell_command spawns a process per event) leaves runs queued when Home Assistant stops, and
 * those are dropped with their events. Home Assistant's file handler flushes every line, through
 * a queue its logging thread empties at once, and drains that queue when it stops: no line is
 * lost while it lives (a SIGKILL can lose the last few). The harness keeps the log of every run
 * (ha-run-logs.ts), since Home Assistant starts a new file at every start.
 *
 * A message is `event ` and the event's data as JSON, on one line: the prefix keeps Home
 * Assistant from reading the rendered JSON back into a mapping (templates' native types), which
 * system_log.write would then print as Python. Old automation syntax: it must load on 2024.3 too.
 */

const LOGGER = "reward_facts_test.event_log";

export const eventLogConfig: Required<Pick<StartHomeAssistantOptions, "automations" | "extraConfig">> = {
  automations: `
- id: log_reward_event
  mode: queued
  max: 100000
  trigger: [{platform: event, event_type: reward_facts_event}]
  action:
    - service: system_log.write
      data: {logger: ${LOGGER}, level: warning, message: "event {{ trigger.event.data | tojson }}"}
    - service: input_boolean.turn_on
      target: {entity_id: input_boolean.flag}
`,
  extraConfig: `
system_log:
`,
};

const line = new RegExp(` \\[${LOGGER.replaceAll(".", "\\.")}\\] event (\\{.*\\})$`);

/** The data of each reward_facts_event the automation logged, in order, repeats included. */
export async function loggedEvents(ha: HomeAssistantInstance): Promise<Array<Record<string, unknown>>> {
  const text = await ha.readLog();
  // Whole lines only: the last one may be in the middle of being written.
  const lines = text.slice(0, text.lastIndexOf("\n") + 1).split("\n");
  return lines.flatMap((entry) => {
    const json = line.exec(entry)?.[1];
    return json === undefined ? [] : [JSON.parse(json) as Record<string, unknown>];
  });
}

/** The event ids the automation logged, in order, repeats included. */
export async function loggedEventIds(ha: HomeAssistantInstance): Promise<string[]> {
  return (await loggedEvents(ha)).map((data) => String(data.event_id));
}
