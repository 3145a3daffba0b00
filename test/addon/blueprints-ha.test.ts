import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connectAsync, type MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Today } from "../../src/api/schemas.js";
import { EVENT_TYPE } from "../../src/ha/delivery/event-data.js";
import { type ChildIdentity, childEntities } from "../../src/ha/entities/entities.js";
import { contractNames } from "../../src/ha/entities/entity-names.js";
import { bridgeDiscovery, childDiscovery } from "../../src/ha/entities/mqtt/discovery.js";
import { bridgeOnline, childStateMessages } from "../../src/ha/entities/mqtt/state-messages.js";
import { en } from "../../src/ha/texts/en.js";
import {
  type EventRecorder,
  type HomeAssistantVersion,
  type MqttRig,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { parseHaYaml, stringifyHaYaml } from "../support/blueprint-yaml.js";
import { sampleToday } from "../support/facts.js";
import { freeLoopbackPort } from "../support/free-port.js";
import { suiteOnRig } from "../support/lab-bridges.js";
import { readsOnlyPre2024_10Syntax, toPre2024_10Syntax } from "../support/pre-2024-10-syntax.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// The blueprints, each with a child's device picked, in a real Home Assistant: the device and its
// entities are what the bridge makes through MQTT discovery (published here, on a real Mosquitto,
// by the bridge's own discovery and state builders, so that the test sets the values), and the
// facts are the bridge's reward_facts_event. Their actions fire marker events or drive a template
// lamp, so what they do can be observed. Real time throughout. On the current release the
// blueprints are imported as a user imports them (by their address, here a local server); the
// oldest release reads them as DOCS.md tells its users to spell them (pre-2024-10-syntax.ts),
// with DOCS.md's example automations and the events page's.

const version = testedHomeAssistantVersion();
const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const noah: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000002", firstName: "Noah", slug: "noah" };

/** The example automations of DOCS.md and of its events page, loaded alongside. */
const docsExamples = [
  ...readText("addon/DOCS.md").matchAll(/```yaml\n([\s\S]*?)```/g),
  ...readText("addon/docs/events.md").matchAll(/```yaml\n([\s\S]*?)```/g),
]
  .map((m) => parseHaYaml(m[1] as string) as Record<string, unknown>)
  .filter((block) => block && "alias" in block && "triggers" in block);

const folders = {
  en: "addon/blueprints/automation/reward_facts",
  fr: "addon/blueprints/automation/reward_facts_fr",
};
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

// A parent's phone, as the Home Assistant app's notify action takes a message: what it is sent
// comes back as an event.
const phoneConfig = `
script:
  phone:
    sequence:
      - event: phone_notified
        event_data:
          message: "{{ message }}"
          data: "{{ data | default({}) }}"
`;

const lab = suiteOnRig(() =>
  startMqttRig(version, { activity: false }, { extraConfig: lampConfig[version] + phoneConfig }),
);
let rig: MqttRig;
let mqtt: MqttClient;
let server: Server;
const recorders: Record<string, EventRecorder> = {};
const seen = (type: string) => recorders[type]?.events ?? [];
const flagState = async () => (await rig.ha.getState("input_boolean.flag"))?.state;
const context = () => ({ haVersion: version, bridgeVersion: "test", names: contractNames, texts: en });

/** A child's device and entities, as the bridge publishes them, with `today`'s values. */
async function publishChild(child: ChildIdentity, today: Today): Promise<void> {
  const messages = [
    ...childDiscovery(child, context()).map((m) => ({ topic: m.topic, payload: JSON.stringify(m.payload) })),
    ...childStateMessages(child, childEntities(contractNames, en, child, today, Date.now())),
  ];
  for (const message of messages) await mqtt.publishAsync(message.topic, message.payload, { retain: true });
}

/** Léa's day with `minutes` left and her session ending in `endsInSeconds` (none when undefined). */
const leasDay = (minutes: number, endsInSeconds?: number): Today => ({
  ...sampleToday,
  minutesRemaining: minutes,
  session:
    endsInSeconds === undefined
      ? null
      : { running: true, endsAt: new Date(Date.now() + endsInSeconds * 1000).toISOString(), minutes: 20 },
});

/** Where a parent's phone opens the reward app. */
const APP_LINK = "https://app.example/parents";

/** Fires a fact of `child` as the bridge fires it. */
const fireFact = (child: ChildIdentity, type: string, data: Record<string, unknown>) =>
  rig.ha.fireEvent(EVENT_TYPE, {
    child_id: child.id,
    child_name: child.firstName,
    child: child.slug,
    day: "2026-11-21",
    at: new Date().toISOString(),
    age_seconds: 40,
    replayed: false,
    redelivered: false,
    event_id: `${type}-${Math.random()}`,
    type,
    ...data,
  });

/** Each blueprint's automation, English and French, on Léa's device; the markers say who acted. */
function automationsFor(deviceId: string, paths: Record<"en" | "fr", (file: string) => string>) {
  const use = (id: string, path: string, input: Record<string, unknown>) => ({
    id,
    alias: id.replaceAll("_", " "),
    use_blueprint: { path, input: { child: deviceId, ...input } },
  });
  return (["en", "fr"] as const).flatMap((language) => {
    const at = paths[language];
    const marker = (name: string, data: Record<string, string>) => [
      { event: `${name}_${language}`, event_data: data },
    ];
    return [
      use(`rf_celebrate_${language}`, at("celebrate"), {
        celebrate_actions: marker("rf_celebrated", {
          message: "{{ message }}",
          child_name: "{{ child_name }}",
        }),
      }),
      use(`rf_validate_${language}`, at("validate_in_app"), {
        notify_actions: marker("rf_validate", { message: "{{ message }}", label: "{{ label }}" }),
      }),
      // Its own actions left as they come (a notification in Home Assistant), and a phone.
      ...(language === "en"
        ? [
            use("rf_validate_phone_en", at("validate_in_app"), {
              phones: ["script.phone"],
              app_link: APP_LINK,
            }),
          ]
        : []),
      use(`rf_minutes_low_${language}`, at("minutes_low"), {
        announce_actions: marker("rf_minutes_low", { message: "{{ message }}" }),
      }),
      use(`rf_warning_${language}`, at("session_ending_warning"), {
        minutes_before: 5,
        warning_actions: marker("rf_warned", {
          child_name: "{{ child_name }}",
          minutes_left: "{{ minutes_left }}",
        }),
      }),
      use(`rf_session_over_${language}`, at("session_over"), {
        // The French one drives nothing: the English one's flag is what is watched.
        devices: language === "en" ? { entity_id: "input_boolean.flag" } : {},
        over_actions: marker("rf_over", { child_name: "{{ child_name }}" }),
      }),
      use(`rf_traffic_light_${language}`, at("traffic_light"), {
        lamp: { entity_id: language === "en" ? "light.lamp" : "light.no_lamp" },
      }),
    ];
  });
}

beforeAll(async () => {
  rig = lab.rig;
  mqtt = await connectAsync(rig.broker.url, { username: rig.user.username, password: rig.user.password });
  await mqtt.publishAsync(bridgeOnline.topic, bridgeOnline.payload, { retain: true });
  for (const message of bridgeDiscovery(context()))
    await mqtt.publishAsync(message.topic, JSON.stringify(message.payload), { retain: true });
  await publishChild(noah, leasDay(30));
  // Léa at home, 4 minutes left: the lamp is red as soon as her automation runs.
  await publishChild(lea, leasDay(4));
  const devices = await rig.ha.waitFor(
    async () => {
      const list = await rig.ha.wsCommand<Array<{ id: string; identifiers: string[][] }>>({
        type: "config/device_registry/list",
      });
      const found = list.find((d) => d.identifiers.some(([, id]) => id === `reward_facts_${lea.id}`));
      return found ? list : undefined;
    },
    { timeoutMs: 60_000, description: "Léa's device" },
  );
  const leaDevice = devices.find((d) => d.identifiers.some(([, id]) => id === `reward_facts_${lea.id}`))
    ?.id as string;

  const paths: Record<"en" | "fr", (file: string) => string> = { en: () => "", fr: () => "" };
  if (readsOnlyPre2024_10Syntax(version)) {
    // Before 2024.10, as DOCS.md tells: the files copied, spelt the older way.
    for (const [language, folder] of Object.entries(folders)) {
      const name = folder.split("/").at(-1) as string;
      const target = join(rig.ha.configDir, "blueprints/automation", name);
      await mkdir(target, { recursive: true });
      for (const file of await readdir(join(repoRoot, folder)))
        await writeFile(
          join(target, file),
          stringifyHaYaml(asUsersWrite(parseHaYaml(readText(`${folder}/${file}`)))),
        );
      paths[language as "en" | "fr"] = (file) => `${name}/${file}.yaml`;
    }
  } else {
    // Imported by their address, as a user does (Settings → Blueprints → Import), then saved.
    server = createServer((request, response) => {
      const [, language, file] = /^\/(en|fr)\/([a-z_]+\.yaml)$/.exec(request.url ?? "") ?? [];
      if (!language || !file) {
        response.writeHead(404).end();
        return;
      }
      readFile(join(repoRoot, folders[language as "en" | "fr"], file), "utf8").then(
        (text) => response.writeHead(200, { "content-type": "text/yaml" }).end(text),
        () => response.writeHead(404).end(),
      );
    });
    const port = await freeLoopbackPort();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    // Two host names for the two languages: an import is named after its host and file.
    const hosts = { en: `127.0.0.1:${port}`, fr: `localhost:${port}` };
    for (const language of ["en", "fr"] as const) {
      for (const file of await readdir(join(repoRoot, folders[language]))) {
        const url = `http://${hosts[language]}/${language}/${file}`;
        const imported = await rig.ha.wsCommand<{ suggested_filename: string; raw_data: string }>({
          type: "blueprint/import",
          url,
        });
        await rig.ha.wsCommand({
          type: "blueprint/save",
          domain: "automation",
          path: imported.suggested_filename,
          yaml: imported.raw_data,
          source_url: url,
        });
      }
      paths[language] = (file) => `${hosts[language].split(":")[0]}/${file}.yaml`;
    }
  }
  const examples = docsExamples.map((example, i) => ({
    id: `docs_example_${i}`,
    ...(asUsersWrite(example) as object),
  }));
  // Listening before the automations run: the lamp is coloured as they are loaded.
  for (const type of [
    ...["rf_celebrated", "rf_validate", "rf_minutes_low", "rf_warned", "rf_over"].flatMap((t) => [
      `${t}_en`,
      `${t}_fr`,
    ]),
    "lamp_colour",
    "phone_notified",
  ])
    recorders[type] = await rig.ha.subscribeEvents(type);
  // Léa's 4 minutes shown before her lamp's automation exists: the band it starts in is already
  // true, which a template trigger alone would never fire for.
  await rig.ha.waitFor(
    async () => (await rig.ha.getState("sensor.reward_facts_lea_minutes_remaining"))?.state === "4",
    { timeoutMs: 60_000, description: "Léa's minutes in Home Assistant" },
  );
  await writeFile(
    join(rig.ha.configDir, "automations.yaml"),
    stringifyHaYaml([...automationsFor(leaDevice, paths), ...examples]),
  );
  await rig.ha.callService("automation", "reload");
});

afterAll(async () => {
  for (const recorder of Object.values(recorders)) await recorder.close();
  await mqtt?.endAsync();
  server?.close();
});

describe(`the blueprints with a child's device picked, Home Assistant ${version}`, () => {
  it("make valid automations, in English and in French, and DOCS' examples too, without a word about their config", async () => {
    const names = ["celebrate", "validate", "minutes_low", "warning", "session_over", "traffic_light"];
    for (const name of names.flatMap((n) => [`rf_${n}_en`, `rf_${n}_fr`])) {
      const state = await rig.ha.waitFor(() => rig.ha.getState(`automation.${name}`), { description: name });
      expect(state.state, name).toBe("on");
    }
    expect(docsExamples.length).toBeGreaterThanOrEqual(16);
    const states = await rig.ha.getStates();
    for (const example of docsExamples) {
      const automation = states.find((s) => s.attributes.friendly_name === example.alias);
      expect(automation?.state, String(example.alias)).toBe("on");
    }
    const log = await readFile(rig.ha.logPath, "utf8");
    expect(log.split("\n").filter((line) => loadProblem.test(line))).toEqual([]);
  });

  it("colour the lamp by minutes remaining, from the moment it runs", async () => {
    await rig.ha.waitFor(() => seen("lamp_colour").length > 0, {
      timeoutMs: 30_000,
      description: "a colour",
    });
    const colours: unknown[] = [seen("lamp_colour").at(-1)?.data.rgb];
    for (const minutes of [45, 20, 5]) {
      const before = seen("lamp_colour").length;
      await publishChild(lea, leasDay(minutes));
      await rig.ha.waitFor(() => seen("lamp_colour").length > before, {
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

  it("warn a few minutes before the session ends, in either language", async () => {
    await publishChild(lea, leasDay(30, 170));
    await rig.ha.waitFor(() => seen("rf_warned_en").length > 0 && seen("rf_warned_fr").length > 0, {
      description: "warned",
    });
    expect(seen("rf_warned_en")[0]?.data).toEqual({ child_name: "Léa", minutes_left: 3 });
  });

  it("act on the chosen child's facts only, and say it in the blueprint's language", async () => {
    await rig.ha.callService("input_boolean", "turn_on", { entity_id: "input_boolean.flag" });
    // Noah's facts: none of Léa's automations acts.
    await fireFact(noah, "behavior_declared", { behavior_id: "b1", label: "Homework", mandatory: true });
    await fireFact(noah, "session_ended", { session_minutes: 20 });
    await fireFact(noah, "cheer_sent", { cheer: "bravo" });
    await fireFact(lea, "behavior_declared", { behavior_id: "b1", label: "Homework", mandatory: true });
    await fireFact(lea, "minutes_low", { minutes_remaining: 5, threshold: 5 });
    await fireFact(lea, "minutes_low", { minutes_remaining: 9, threshold: 10, replayed: true });
    await fireFact(lea, "cheer_sent", { cheer: "super" });
    await fireFact(lea, "session_ended", { session_minutes: 25 });
    await rig.ha.waitFor(async () => (await flagState()) === "off", {
      timeoutMs: 15_000,
      description: "flag off",
    });
    await rig.ha.waitFor(() => seen("rf_over_fr").length > 0 && seen("rf_celebrated_fr").length > 0, {
      description: "every automation ran",
    });
    await sleep(1_500);
    expect(seen("rf_validate_en").map((e) => e.data)).toEqual([
      { message: 'Léa says "Homework" is done: check it and validate it in the app.', label: "Homework" },
    ]);
    expect(seen("rf_validate_fr").map((e) => e.data.message)).toEqual([
      "Léa dit avoir fait « Homework » : vérifiez-le et validez-le dans l'application.",
    ]);
    // The announcement skips a count read late.
    expect(seen("rf_minutes_low_en").map((e) => e.data.message)).toEqual(["Léa, 5 minutes left."]);
    expect(seen("rf_minutes_low_fr").map((e) => e.data.message)).toEqual(["Léa, il te reste 5 minutes."]);
    expect(seen("rf_celebrated_en").map((e) => e.data.message)).toEqual(["Léa, you got a cheer: super!"]);
    expect(seen("rf_celebrated_fr").map((e) => e.data.message)).toEqual([
      "Léa, tu as reçu un encouragement : super !",
    ]);
    expect(seen("rf_over_en").map((e) => e.data)).toEqual([{ child_name: "Léa" }]);
  });

  it("ask on the parents' phones and in Home Assistant, and take it back everywhere once the behavior is settled in the app", async () => {
    const shownIds = async () =>
      (
        await rig.ha.wsCommand<Array<{ notification_id: string }>>({ type: "persistent_notification/get" })
      ).map((n) => n.notification_id);
    const tagOf = (behavior: string) => `reward_facts_${lea.id}_${behavior}_2026-11-21`;
    const phoneGot = (message: string, tag: string) =>
      seen("phone_notified").filter(
        (e) => e.data.message === message && (e.data.data as { tag?: string } | undefined)?.tag === tag,
      );
    for (const [behavior, settled] of [
      ["b7", "behavior_validated"],
      ["b8", "behavior_rejected"],
    ] as const) {
      const tag = tagOf(behavior);
      await fireFact(lea, "behavior_declared", { behavior_id: behavior, label: "Tidy up", mandatory: false });
      await rig.ha.waitFor(async () => (await shownIds()).includes(tag), {
        timeoutMs: 15_000,
        description: `the notification ${tag} shown`,
      });
      const asked = await rig.ha.waitFor(
        () => phoneGot('Léa says "Tidy up" is done: check it and validate it in the app.', tag)[0],
        { description: `the phone asked (${JSON.stringify(seen("phone_notified").map((e) => e.data))})` },
      );
      // Tapped, it opens the app (url for iOS, clickAction for Android); grouped with the others.
      expect(asked.data.data).toEqual({ tag, group: "reward_facts", url: APP_LINK, clickAction: APP_LINK });
      // Settled in the app, by any parent: gone from Home Assistant and from the phone.
      await fireFact(lea, settled, { behavior_id: behavior, label: "Tidy up" });
      await rig.ha.waitFor(async () => !(await shownIds()).includes(tag), {
        timeoutMs: 15_000,
        description: `the notification ${tag} dismissed`,
      });
      await rig.ha.waitFor(() => phoneGot("clear_notification", tag).length === 1, {
        description: `the phone told to clear ${tag}`,
      });
    }
    // Another child's, or another day's, settling takes nothing away.
    await fireFact(lea, "behavior_declared", { behavior_id: "b9", label: "Tidy up", mandatory: false });
    await rig.ha.waitFor(async () => (await shownIds()).includes(tagOf("b9")));
    await fireFact(noah, "behavior_validated", { behavior_id: "b9", label: "Tidy up" });
    await fireFact(lea, "behavior_validated", { behavior_id: "b9", label: "Tidy up", day: "2026-11-22" });
    await sleep(1_500);
    expect(await shownIds()).toContain(tagOf("b9"));
    expect(phoneGot("clear_notification", tagOf("b9"))).toEqual([]);
  });

  it("do nothing for the child on the other household's days", async () => {
    await publishChild(lea, { date: "2026-11-21", isMyDay: false });
    await sleep(1_000);
    const before = seen("rf_celebrated_en").length;
    await fireFact(lea, "cheer_sent", { cheer: "bravo" });
    await sleep(3_000);
    expect(seen("rf_celebrated_en")).toHaveLength(before);
  });
});
