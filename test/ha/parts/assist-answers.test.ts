import { describe, expect, it } from "vitest";
import { childEntityId } from "../../../src/ha/entities/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";
import { OLDEST_HOME_ASSISTANT_VERSION, testedHomeAssistantVersion } from "../../lab/index.js";
import { assistScene, say } from "./assist-scene.js";

// Assist out of the box, through Home Assistant's own conversation agent (websocket
// conversation/process, as a voice satellite or the Assist dialog sends it), with no blueprint
// imported: the bridge keeps its own automation in the household's language. Léa at home, Noah at
// the other home today, Inès whose rules the app has not synced yet; "I" asked from a satellite in
// Léa's room and by Noah's own user; the summary script an assistant calls (old figures:
// assist-stale.test.ts). Both releases: 2024.3.3 tells an automation neither the satellite nor the
// user, so "I" answers for every child there (as DOCS says); it reads the older syntax the
// bridge writes for it.

const version = testedHomeAssistantVersion();
const scene = assistScene(version);

describe(`Assist out of the box on Home Assistant ${version}`, () => {
  it("answers the four questions and 'Can Léa use screens?' with no blueprint, right for each child", async () => {
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    await scene.waitUntil(
      async () =>
        (await scene.ha.getState(childEntityId("lea", "minutes_remaining")))?.state ===
        String(lea.minutesRemaining),
      "Léa's minutes",
    );
    expect(await scene.ask("How many minutes does Léa have left?")).toBe(
      say(en.voice.minutes_left, { child: "Léa", minutes: lea.minutesRemaining }),
    );
    expect(await scene.ask("Is Léa's session running?")).toBe(say(en.voice.session_off, { child: "Léa" }));
    expect(await scene.ask("What is Léa's streak?")).toBe(
      say(en.voice.streak_days, { child: "Léa", days: lea.streakDays }),
    );
    const allowed = lea.minutesRemaining > 0 && lea.consumableToday;
    const screens = allowed
      ? say(en.voice.allowed, { child: "Léa", minutes: lea.minutesRemaining })
      : say(lea.consumableToday ? en.voice.no_minutes_left : en.voice.not_consumable_today, { child: "Léa" });
    expect(await scene.ask("Can Léa use screens?")).toBe(screens);
    expect(await scene.ask("Why can't Léa use screens?")).toBe(screens);
    // Noah at the other home today; Inès waiting for the app; a child the household does not have.
    expect(await scene.ask("How many minutes does Noah have left?")).toBe(
      say(en.voice.other_home, { child: "Noah" }),
    );
    expect(await scene.ask("Can Noah watch TV?")).toBe(say(en.voice.other_home, { child: "Noah" }));
    expect(await scene.ask("How many minutes does Inès have left?")).toBe(
      say(en.voice.not_synced, { child: "Inès" }),
    );
    expect(await scene.ask("How many minutes does Zoé have left?")).toMatch(/^I don't know zoé\.$/i);
  }, 120_000);

  it("answers 'I' for the child of the satellite's room, else of the asking user, else every child by name", async () => {
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    await scene.waitUntil(
      async () =>
        (await scene.ha.getState(childEntityId("lea", "minutes_remaining")))?.state ===
        String(lea.minutesRemaining),
      "Léa's minutes",
    );
    // Léa's room: her device and the satellite that hears her (the bridge's device stands in for it).
    const area = await scene.ha.wsCommand<{ area_id: string }>({
      type: "config/area_registry/create",
      name: "Léa's room",
    });
    const devices = await scene.ha.wsCommand<Array<{ id: string; identifiers: string[][] }>>({
      type: "config/device_registry/list",
    });
    const deviceOf = (identifier: string) => {
      const device = devices.find((d) => d.identifiers.some(([, id]) => id === identifier));
      if (!device) throw new Error(`no device ${identifier}`);
      return device.id;
    };
    const leaDevice = deviceOf(`reward_facts_${scene.sim.children.ordinary.id}`);
    const satellite = deviceOf("reward_facts_bridge");
    for (const device_id of [leaDevice, satellite])
      await scene.ha.wsCommand({ type: "config/device_registry/update", device_id, area_id: area.area_id });
    const leasMinutes = say(en.voice.minutes_left, { child: "Léa", minutes: lea.minutesRemaining });
    const everyChild = [
      leasMinutes,
      say(en.voice.other_home, { child: "Noah" }),
      say(en.voice.not_synced, { child: "Inès" }),
    ].join(" ");
    // The oldest release passes an automation neither the satellite nor the user.
    const knowsWhoAsks = version !== OLDEST_HOME_ASSISTANT_VERSION;
    // (Its conversation/process takes no device either.)
    expect(
      await scene.ask("How many minutes do I have left?", "en", knowsWhoAsks ? satellite : undefined),
    ).toBe(knowsWhoAsks ? leasMinutes : everyChild);

    // No satellite: the asking user's person, Noah.
    const me = await scene.ha.wsCommand<{ id: string }>({ type: "auth/current_user" });
    // The asking user's person (onboarding made it, under the owner's name) named as the child.
    const people = await scene.ha.wsCommand<{
      storage: Array<{ id: string; name: string; user_id: string | null }>;
    }>({
      type: "person/list",
    });
    const mine = people.storage.find((person) => person.user_id === me.id);
    if (!mine) throw new Error("the test user has no person");
    await scene.ha.wsCommand({ type: "person/update", person_id: mine.id, name: "Noah", user_id: me.id });
    try {
      await scene.waitUntil(
        async () =>
          (await scene.ha.getStates()).some(
            (state) => state.entity_id.startsWith("person.") && state.attributes.friendly_name === "Noah",
          ),
        "the person named Noah",
      );
      expect(await scene.ask("How many minutes do I have left?")).toBe(
        knowsWhoAsks ? say(en.voice.other_home, { child: "Noah" }) : everyChild,
      );
    } finally {
      await scene.ha.wsCommand({
        type: "person/update",
        person_id: mine.id,
        name: mine.name,
        user_id: me.id,
      });
    }
    // Neither: every child, by name.
    expect(await scene.ask("How many minutes do I have left?")).toBe(everyChild);
  }, 120_000);

  it("answers in French once Home Assistant speaks French: 'Léa peut-elle regarder la télé ?'", async () => {
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    await scene.setLanguage("fr");
    try {
      await scene.waitUntil(
        async () => (await scene.bridgeAutomation())?.attributes.friendly_name === fr.voice.automation_name,
        "the automation in French",
      );
      expect(await scene.ask("Combien de minutes reste-t-il à Léa ?", "fr")).toBe(
        say(fr.voice.minutes_left, { child: "Léa", minutes: lea.minutesRemaining }),
      );
      expect(await scene.ask("Est-ce que la session de Léa est en cours ?", "fr")).toBe(
        say(fr.voice.session_off, { child: "Léa" }),
      );
      expect(await scene.ask("Quelle est la série de Léa ?", "fr")).toBe(
        say(fr.voice.streak_days, { child: "Léa", days: lea.streakDays }),
      );
      const allowed = lea.minutesRemaining > 0 && lea.consumableToday;
      const screens = allowed
        ? say(fr.voice.allowed, { child: "Léa", minutes: lea.minutesRemaining })
        : say(lea.consumableToday ? fr.voice.no_minutes_left : fr.voice.not_consumable_today, {
            child: "Léa",
          });
      expect(await scene.ask("Léa peut-elle regarder la télé ?", "fr")).toBe(screens);
      expect(await scene.ask("Pourquoi Léa ne peut-elle pas utiliser les écrans ?", "fr")).toBe(screens);
      expect(await scene.ask("Combien de minutes reste-t-il à Noah ?", "fr")).toBe(
        say(fr.voice.other_home, { child: "Noah" }),
      );
    } finally {
      await scene.setLanguage("en");
    }
  }, 120_000);

  it("gives assistants the children's summary through an exposed script", async () => {
    const exposed = await scene.ha.wsCommand<{
      exposed_entities: Record<string, { conversation?: boolean }>;
    }>({
      type: "homeassistant/expose_entity/list",
    });
    expect(exposed.exposed_entities["script.reward_facts_summary"]?.conversation).toBe(true);
    const answer = await scene.ha.wsCommand<{ response: { children: Array<Record<string, unknown>> } }>({
      type: "call_service",
      domain: "script",
      service: "reward_facts_summary",
      service_data: { child: "léa" },
      return_response: true,
    });
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    const [summary, ...others] = answer.response.children;
    expect(others).toEqual([]);
    const left = lea.behaviors.filter((b) => b.status !== "validated");
    expect(summary).toMatchObject({
      name: "Léa",
      readable: true,
      at_other_home_today: false,
      minutes_left: lea.minutesRemaining,
      session_running: false,
      points: lea.points,
      streak_days: lea.streakDays,
      behaviors_left_today: [...left.filter((b) => b.mandatory), ...left.filter((b) => !b.mandatory)].map(
        (b) => b.label,
      ),
      screen_time_allowed: lea.minutesRemaining > 0 && lea.consumableToday,
      stale: false,
    });
    expect(typeof summary?.read_at).toBe("string");
    const all = await scene.ha.wsCommand<{ response: { children: Array<{ name: string }> } }>({
      type: "call_service",
      domain: "script",
      service: "reward_facts_summary",
      service_data: {},
      return_response: true,
    });
    expect(all.response.children.map((child) => child.name)).toEqual(["Léa", "Noah", "Inès"]);
  }, 60_000);
});
