import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { childEntityId } from "../../../src/ha/entities/entity-names.js";
import { readText } from "../../addon/supervisor-rules.js";
import { type MqttRig, startMqttRig, testedHomeAssistantVersion } from "../../lab/index.js";
import { parseHaYaml, stringifyHaYaml } from "../../support/blueprint-yaml.js";
import type { BridgeProcess } from "../../support/bridge-process.js";
import { suiteOnRig } from "../../support/lab-bridges.js";
import { readsOnlyPre2024_10Syntax, toPre2024_10Syntax } from "../../support/pre-2024-10-syntax.js";
import { afterReadings } from "../../support/served-reads.js";

// Assist, Home Assistant's own conversation agent (websocket conversation/process, as the voice
// pipeline and the chat dialog call it), answers about a child with the live figures: through the
// built-in intents for the entities the bridge offers it (with aliases in the household's
// language), and through the assist_answers blueprint for what they cannot take. A user's own
// aliases and exposure choices are never overwritten; the `assist` option turns it all off.

const version = testedHomeAssistantVersion();
// The conversation agent, which a default installation loads (the harness's starts bare).
const lab = suiteOnRig(() => startMqttRig(version, { activity: false }, { extraConfig: "conversation:\n" }));
let rig: MqttRig;
let bridge: BridgeProcess;

const ask = async (text: string, language: string) => {
  const result = await rig.ha.wsCommand<{ response: { speech?: { plain?: { speech?: string } } } }>({
    type: "conversation/process",
    text,
    language,
  });
  return result.response.speech?.plain?.speech ?? "";
};
const setLanguage = (language: string) => rig.ha.wsCommand({ type: "config/core/update", language });
/** An entity's aliases a person gave (recent releases add the entity's own name as null). */
const aliasesOf = async (entityId: string): Promise<string[]> =>
  (
    await rig.ha.wsCommand<{ aliases: Array<string | null> }>({
      type: "config/entity_registry/get",
      entity_id: entityId,
    })
  ).aliases.filter((alias): alias is string => alias !== null);
const exposed = async () =>
  (
    await rig.ha.wsCommand<{ exposed_entities: Record<string, { conversation?: boolean }> }>({
      type: "homeassistant/expose_entity/list",
    })
  ).exposed_entities;

beforeAll(async () => {
  rig = lab.rig;
  // The blueprint in both languages, and an automation from each, as a user makes them.
  const automations = [];
  for (const folder of ["reward_facts", "reward_facts_fr"]) {
    const target = join(rig.ha.configDir, "blueprints/automation", folder);
    await mkdir(target, { recursive: true });
    const text = readText(`addon/blueprints/automation/${folder}/assist_answers.yaml`);
    await writeFile(
      join(target, "assist_answers.yaml"),
      readsOnlyPre2024_10Syntax(version) ? stringifyHaYaml(toPre2024_10Syntax(parseHaYaml(text))) : text,
    );
    automations.push({
      id: `assist_${folder}`,
      alias: `assist ${folder}`,
      use_blueprint: { path: `${folder}/assist_answers.yaml`, input: {} },
    });
  }
  await writeFile(join(rig.ha.configDir, "automations.yaml"), stringifyHaYaml(automations));
  await rig.ha.callService("automation", "reload");
  await setLanguage("en");
  bridge = await lab.start({ children: [rig.sim.children.ordinary.id], publish: "mqtt" });
});

const waitUntil = <T>(check: () => Promise<T | undefined | false>, description: string) =>
  rig.ha.waitFor(check, {
    timeoutMs: 90_000,
    description: () => `${description} (the bridge said: ${bridge.text().slice(-1_500)})`,
  }) as Promise<T>;

describe(`Assist on Home Assistant ${version}`, () => {
  it("answers in English with the live figures, through the blueprint and the built-in intents", async () => {
    const today = rig.sim.today(rig.sim.children.ordinary.id);
    if (!today.isMyDay) throw new Error("Léa is always at home");
    const minutes = childEntityId("lea", "minutes_remaining");
    await waitUntil(
      async () => (await aliasesOf(minutes).catch(() => [] as string[])).includes("Léa's minutes left"),
      "Léa's alias",
    );
    expect((await exposed())[minutes]?.conversation).toBe(true);
    await waitUntil(
      async () => (await rig.ha.getState(minutes))?.attributes.child_name === "Léa",
      "Léa's values",
    );

    expect(await ask("How many minutes does Léa have left?", "en")).toBe(
      `Léa has ${today.minutesRemaining} minutes left.`,
    );
    expect(await ask("Is Léa's session running?", "en")).toMatch(
      /^(No, Léa has no session running\.|Yes, Léa's session is running, until \d\d:\d\d\.)$/,
    );
    expect(await ask("What is Léa's streak?", "en")).toBe(`Léa's streak is ${today.streakDays} days.`);
    // The user's automations from the blueprint answer: the bridge keeps none of its own, so
    // that nothing answers twice (parts/assist-answers.ts), and says so.
    expect(
      (await rig.ha.getStates()).some((state) => state.attributes.id === "reward_facts_assist_answers"),
    ).toBe(false);
    expect(bridge.text()).toContain("your automation from the assist_answers blueprint answers");
    // Her entities by their alias, through Home Assistant's own intent.
    expect(await ask("What is Léa's minutes left?", "en")).toContain(String(today.minutesRemaining));
    // A child the household does not have: named back as heard (the oldest release's matcher
    // lowercases what a wildcard caught).
    expect(await ask("How many minutes does Zoé have left?", "en")).toMatch(/^I don't know zoé\.$/i);
  }, 120_000);

  it("says why Léa cannot use screens, in English and in French", async () => {
    const lea = rig.sim.children.ordinary.id;
    const allowed = childEntityId("lea", "screen_time_allowed");
    // A parent froze her day in the app: no minutes may be used today.
    rig.sim.freezeDay(lea);
    try {
      await waitUntil(
        async () => (await rig.ha.getState(allowed))?.attributes.why_not === "not_consumable_today",
        "Léa's why_not",
      );
      expect(await ask("Why can't Léa use screens?", "en")).toBe(
        "The app does not allow Léa to use minutes today.",
      );
      await setLanguage("fr");
      expect(await ask("Pourquoi Léa ne peut-elle pas utiliser les écrans ?", "fr")).toBe(
        "L'application ne permet pas à Léa d'utiliser des minutes aujourd'hui.",
      );
    } finally {
      await setLanguage("en");
      rig.sim.freezeDay(lea, false);
    }
  }, 120_000);

  it("answers in French once Home Assistant speaks French, its aliases in French too", async () => {
    const today = rig.sim.today(rig.sim.children.ordinary.id);
    if (!today.isMyDay) throw new Error("Léa is always at home");
    await setLanguage("fr");
    await waitUntil(
      async () => (await aliasesOf(childEntityId("lea", "streak"))).includes("série de Léa"),
      "Léa's alias in French",
    );
    expect(await ask("Combien de minutes reste-t-il à Léa ?", "fr")).toBe(
      `Il reste ${today.minutesRemaining} minutes à Léa.`,
    );
    expect(await ask("Est-ce que la session de Léa est en cours ?", "fr")).toMatch(
      /^(Non, Léa n'a pas de session en cours\.|Oui, la session de Léa est en cours, jusqu'à \d\d:\d\d\.)$/,
    );
    expect(await ask("Quelle est la série de Léa ?", "fr")).toBe(
      `La série de Léa est de ${today.streakDays} jours.`,
    );
    await setLanguage("en");
  }, 120_000);

  it("never overwrites a user's own aliases or exposure, across a restart", async () => {
    const streak = childEntityId("lea", "streak");
    const session = childEntityId("lea", "session_running");
    await waitUntil(async () => (await aliasesOf(streak)).includes("Léa's streak"), "the English alias back");
    await rig.ha.wsCommand({
      type: "config/entity_registry/update",
      entity_id: streak,
      aliases: ["Léa's record"],
    });
    await rig.ha.wsCommand({
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: [session],
      should_expose: false,
    });
    await bridge.stop();
    bridge = lab.again(bridge);
    await waitUntil(
      async () => bridge.text().includes("Home Assistant is running: publishing"),
      "the bridge back",
    );
    // Two readings later: long enough for the bridge to have done anything it would do.
    await afterReadings(rig.sim, rig.sim.children.ordinary.id, "today", 2);
    expect(await aliasesOf(streak)).toEqual(["Léa's record"]);
    expect((await exposed())[session]?.conversation ?? false).toBe(false);
  }, 180_000);

  it("offers nothing to Assist with the assist option off", async () => {
    await bridge.stop();
    const noah = rig.sim.children.custody;
    bridge = lab.again(bridge, { REWARD_FACTS_CHILDREN: noah.id, REWARD_FACTS_ASSIST: "false" });
    const minutes = childEntityId("noah", "minutes_remaining");
    await waitUntil(async () => (await rig.ha.getState(minutes)) !== null, "Noah's entities");
    await afterReadings(rig.sim, noah.id, "today", 2);
    expect((await exposed())[minutes]?.conversation ?? false).toBe(false);
    expect(await aliasesOf(minutes)).toEqual([]);
  }, 180_000);
});
