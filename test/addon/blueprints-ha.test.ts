import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId, withOffset } from "../../src/ha/entities.js";
import { EVENT_TYPE } from "../../src/ha/event-data.js";
import {
  type EventRecorder,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  type HomeAssistantVersion,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { parseHaYaml, stringifyHaYaml } from "../support/blueprint-yaml.js";
import { readsOnlyPre2024_10Syntax, toPre2024_10Syntax } from "../support/pre-2024-10-syntax.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// The four blueprints, instantiated in a real Home Assistant with the entities the bridge
// publishes (written here through the REST API as the bridge does). Their actions fire marker
// events or drive a template lamp, so what they do can be observed. Real time throughout.
// Users' YAML is in the syntax of 2024.10 and later; an older release gets it as DOCS.md tells
// its users to spell it (pre-2024-10-syntax.ts). The test's own YAML is in the old syntax,
// which every release reads.

const version = testedHomeAssistantVersion();
const lea = { child_id: "7f3c2a10-0000-4000-8000-000000000001", child_name: "Léa" };
const myDay = childEntityId("lea", "my_day");
const endsAt = childEntityId("lea", "session_ends_at");
const minutesRemaining = childEntityId("lea", "minutes_remaining");

// The same four in French (npm run blueprints writes them from the English ones); the celebration
// says its message in French.
const frenchAutomations = `
- id: rf_warning_fr
  alias: rf warning fr
  use_blueprint:
    path: reward_facts_fr/session_ending_warning.yaml
    input: {my_day: ${myDay}, session_ends_at: ${endsAt}, minutes_before: 5, warning_actions: [{event: rf_warned_fr}]}
- id: rf_turn_off_fr
  alias: rf turn off fr
  use_blueprint:
    path: reward_facts_fr/session_end_turn_off.yaml
    input: {my_day: ${myDay}, session_ends_at: ${endsAt}, devices: {entity_id: input_boolean.other}}
- id: rf_traffic_light_fr
  alias: rf traffic light fr
  use_blueprint:
    path: reward_facts_fr/traffic_light.yaml
    input: {my_day: ${myDay}, minutes_remaining: ${minutesRemaining}, lamp: {entity_id: light.other_lamp}}
- id: rf_celebrate_fr
  alias: rf celebrate fr
  use_blueprint:
    path: reward_facts_fr/celebrate.yaml
    input:
      my_day: ${myDay}
      celebrate_actions:
        - event: rf_celebrated_fr
          event_data: {message: "{{ message }}", child_name: "{{ child_name }}"}
`;

const automations = `
- id: rf_warning
  alias: rf warning
  use_blueprint:
    path: reward_facts/session_ending_warning.yaml
    input:
      my_day: ${myDay}
      session_ends_at: ${endsAt}
      minutes_before: 5
      warning_actions:
        - event: rf_warned
          event_data: {child_name: "{{ child_name }}", minutes_left: "{{ minutes_left }}"}
- id: rf_turn_off
  alias: rf turn off
  use_blueprint:
    path: reward_facts/session_end_turn_off.yaml
    input:
      my_day: ${myDay}
      session_ends_at: ${endsAt}
      devices: {entity_id: input_boolean.flag}
- id: rf_traffic_light
  alias: rf traffic light
  use_blueprint:
    path: reward_facts/traffic_light.yaml
    input:
      my_day: ${myDay}
      minutes_remaining: ${minutesRemaining}
      lamp: {entity_id: light.lamp}
- id: rf_celebrate
  alias: rf celebrate
  use_blueprint:
    path: reward_facts/celebrate.yaml
    input:
      my_day: ${myDay}
      celebrate_actions:
        - event: rf_celebrated
          event_data: {message: "{{ message }}", child_name: "{{ child_name }}"}
${frenchAutomations}`;

/** The example automations of DOCS.md and of its events page, loaded alongside. */
const docsExamples = [
  ...readText("addon/DOCS.md").matchAll(/```yaml\n([\s\S]*?)```/g),
  ...readText("addon/docs/events.md").matchAll(/```yaml\n([\s\S]*?)```/g),
]
  .map((m) => parseHaYaml(m[1] as string) as Record<string, unknown>)
  .filter((block) => block && "alias" in block && "triggers" in block);

const blueprintFolder = "addon/blueprints/automation/reward_facts";
/** Users' YAML as this release must read it. */
const asUsersWrite = (document: unknown) =>
  readsOnlyPre2024_10Syntax(version) ? toPre2024_10Syntax(document) : document;

/** What Home Assistant logs about automations or blueprints it cannot load. */
const loadProblem =
  /Invalid config|invalid automation|has been disabled|Failed to (load|generate automation from) blueprint|failed to generate automation|Requires at least Home Assistant/;

// A lamp that reports the colour it is asked for as an event: light.lamp. Template lights were a
// light platform until 2025; 2026.11 reads them only under the template integration's own key.
const lampActions = `
        turn_on: [{event: lamp_on}]
        turn_off: [{event: lamp_off}]
        set_rgb:
          - event: lamp_colour
            event_data: {rgb: "{{ [r, g, b] }}"}`;
const lampConfig: Record<HomeAssistantVersion, string> = {
  "2024.3.3": `
light:
  - platform: template
    lights:
      lamp:${lampActions}
`,
  "2026.11.0": `
template:
  - light:
      - name: lamp${lampActions}
`,
};
const extraConfig = lampConfig[version];

let ha: HomeAssistantInstance;
const recorders: Record<string, EventRecorder> = {};

const setState = (entityId: string, state: string, attributes: Record<string, unknown> = {}) =>
  ha.api("POST", `/api/states/${entityId}`, { state, attributes: { ...lea, ...attributes } });
const inSeconds = (seconds: number) =>
  withOffset(new Date(Date.now() + seconds * 1000).toISOString()) as string;
const flagState = async () => (await ha.getState("input_boolean.flag"))?.state;

beforeAll(async () => {
  ha = await startHomeAssistant({ extraConfig, version });
  // The harness boots a fresh config dir at once: the blueprints and the automations that use
  // them go in afterwards, and Home Assistant reads its automations again.
  for (const folder of [blueprintFolder, `${blueprintFolder}_fr`]) {
    const target = join(ha.configDir, "blueprints/automation", folder.split("/").at(-1) as string);
    await mkdir(target, { recursive: true });
    for (const file of await readdir(join(repoRoot, folder))) {
      const text = readText(`${folder}/${file}`);
      const written = readsOnlyPre2024_10Syntax(version)
        ? stringifyHaYaml(asUsersWrite(parseHaYaml(text)))
        : text;
      await writeFile(join(target, file), written);
    }
  }
  const examples = docsExamples.map((example, i) => ({
    id: `docs_example_${i}`,
    ...(asUsersWrite(example) as object),
  }));
  await writeFile(join(ha.configDir, "automations.yaml"), automations + stringifyHaYaml(examples));
  await ha.callService("automation", "reload");
  for (const type of ["rf_warned", "rf_celebrated", "rf_celebrated_fr", "lamp_colour"])
    recorders[type] = await ha.subscribeEvents(type);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  for (const recorder of Object.values(recorders)) await recorder.close();
  await ha?.stop();
});

const seen = (type: string) => recorders[type]?.events ?? [];

describe(`the blueprints in Home Assistant ${version}`, () => {
  it("make valid automations", async () => {
    for (const name of ["rf_warning", "rf_turn_off", "rf_traffic_light", "rf_celebrate"].flatMap((n) => [
      n,
      `${n}_fr`,
    ])) {
      const state = await ha.waitFor(() => ha.getState(`automation.${name}`), { description: name });
      expect(state.state, name).toBe("on");
    }
  });

  it("load, and DOCS.md's examples too, without a word from Home Assistant about their config", async () => {
    const log = await readFile(ha.logPath, "utf8");
    expect(log.split("\n").filter((line) => loadProblem.test(line))).toEqual([]);
  });

  it("load DOCS.md's example automations too", async () => {
    expect(docsExamples.length).toBeGreaterThanOrEqual(2);
    const states = await ha.getStates();
    for (const example of docsExamples) {
      const automation = states.find((s) => s.attributes.friendly_name === example.alias);
      expect(automation?.state, String(example.alias)).toBe("on");
    }
  });

  it("warn a few minutes before the session ends", async () => {
    await setState(myDay, "on");
    await setState(endsAt, inSeconds(170), { device_class: "timestamp" });
    const [warned] = await ha.waitFor(() => seen("rf_warned").length > 0 && seen("rf_warned"));
    expect(warned?.data).toEqual({ child_name: "Léa", minutes_left: 3 });
  });

  it("turn the device off when the session ends", async () => {
    await ha.callService("input_boolean", "turn_on", { entity_id: "input_boolean.flag" });
    await setState(endsAt, inSeconds(3), { device_class: "timestamp" });
    await ha.waitFor(async () => (await flagState()) === "off", {
      timeoutMs: 15_000,
      description: "flag off",
    });
  });

  it("do nothing on the other household's days", async () => {
    const warnings = seen("rf_warned").length;
    await setState(myDay, "off");
    await ha.callService("input_boolean", "turn_on", { entity_id: "input_boolean.flag" });
    await setState(endsAt, inSeconds(3), { device_class: "timestamp" });
    await setState(minutesRemaining, "4", { device_class: "duration" });
    await ha.fireEvent(EVENT_TYPE, { ...lea, type: "cheer_sent", cheer: "bravo", child: "lea" });
    await sleep(6_000);
    expect(await flagState()).toBe("on");
    expect(seen("rf_warned").length).toBe(warnings);
    expect(seen("rf_celebrated")).toEqual([]);
    expect(seen("lamp_colour")).toEqual([]);
  }, 20_000);

  it("colour the lamp by minutes remaining, from the moment the child's day begins", async () => {
    // The 4 minutes left from the previous test: red as soon as my_day turns on.
    await setState(myDay, "on");
    await ha.waitFor(() => seen("lamp_colour").length > 0, { description: "colour when my_day turns on" });
    const colours: unknown[] = [seen("lamp_colour")[0]?.data.rgb];
    for (const minutes of ["45", "20", "5"]) {
      const before = seen("lamp_colour").length;
      await setState(minutesRemaining, minutes, { device_class: "duration" });
      await ha.waitFor(() => seen("lamp_colour").length > before, {
        description: `colour at ${minutes} min`,
      });
      colours.push(seen("lamp_colour").at(-1)?.data.rgb);
    }
    expect(colours).toEqual([
      [255, 0, 0],
      [0, 128, 0],
      [255, 165, 0],
      [255, 0, 0],
    ]);
  });

  it("celebrate the chosen child's behaviors and cheers, and nothing else", async () => {
    const base = {
      ...lea,
      child: "lea",
      day: "2026-11-21",
      at: "2026-11-21T16:00:00Z",
      age_seconds: 40,
      replayed: false,
      redelivered: false,
    };
    await ha.fireEvent(EVENT_TYPE, { ...base, event_id: "e1", type: "session_started", minutes: 20 });
    await ha.fireEvent(EVENT_TYPE, {
      ...base,
      event_id: "e2",
      child_id: "someone-else",
      type: "cheer_sent",
      cheer: "seen",
    });
    await ha.fireEvent(EVENT_TYPE, { ...base, event_id: "e3", type: "cheer_sent", cheer: "super" });
    await ha.fireEvent(EVENT_TYPE, {
      ...base,
      event_id: "e4",
      type: "behavior_validated",
      behavior_id: "b1",
      label: "Homework",
    });
    // Late facts: a morning's cheer read at night, a fact that may have fired once already.
    await ha.fireEvent(EVENT_TYPE, {
      ...base,
      event_id: "e5",
      type: "cheer_sent",
      cheer: "bravo",
      replayed: true,
    });
    await ha.fireEvent(EVENT_TYPE, {
      ...base,
      event_id: "e6",
      type: "cheer_sent",
      cheer: "seen",
      replayed: false,
      redelivered: true,
    });
    await ha.waitFor(() => seen("rf_celebrated").length >= 2, { description: "two celebrations" });
    await sleep(1_500);
    expect(seen("rf_celebrated").map((event) => event.data)).toEqual([
      { message: "Léa, you got a cheer: super!", child_name: "Léa" },
      { message: "Well done Léa: Homework!", child_name: "Léa" },
    ]);
    await ha.waitFor(() => seen("rf_celebrated_fr").length >= 2, {
      description: "two celebrations in French",
    });
    expect(seen("rf_celebrated_fr").map((event) => event.data)).toEqual([
      { message: "Léa, tu as reçu un encouragement : super !", child_name: "Léa" },
      { message: "Bravo Léa : Homework !", child_name: "Léa" },
    ]);
  });
});
