import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fr } from "../../../src/ha/texts/fr.js";
import { fill } from "../../../src/ha/texts/texts.js";
import {
  type FrontendTokens,
  launchChromium,
  openFrontend,
  screenshot,
  signInTestUser,
  startMqttRig,
  testedHomeAssistantVersion,
  visibleTexts,
} from "../../lab/index.js";
import type { BridgeProcess } from "../../support/bridge-process.js";
import { englishLeft } from "../../support/english-left.js";
import { suiteOnRig } from "../../support/lab-bridges.js";

// A child's latest facts as a parent reads them, in a French Home Assistant (MQTT mode, the
// dashboard on): each fact once, a line in French with its label and its own time, the same
// after Home Assistant restarts and after the bridge restarts; drawn by the frontend in Chromium.

const version = testedHomeAssistantVersion();
const DIARY = "sensor.reward_facts_lea_latest_facts";
const HOMEWORK = "Faire ses devoirs";
const MINUTE = 60_000;

const lab = suiteOnRig(() => startMqttRig(version));
let bridge: BridgeProcess;
let browser: Browser;
let tokens: FrontendTokens;

interface DiaryFact {
  id: string;
  at: string;
  type: string;
  text: string;
}

const diary = async () =>
  ((await lab.rig.ha.getState(DIARY))?.attributes.facts as DiaryFact[] | undefined) ?? [];

/** The fact's time as Home Assistant's clock reads it (Europe/Paris in the lab). */
const hourMinute = (at: string) =>
  new Intl.DateTimeFormat("fr-FR", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(
    new Date(at),
  );

beforeAll(async () => {
  const { ha, sim } = lab.rig;
  await ha.wsCommand({ type: "config/core/update", language: "fr" });
  // Facts of a few minutes ago, before the bridge's first start: their time is theirs, not the
  // moment they reach Home Assistant.
  const lea = sim.children.ordinary.id;
  sim.addEvent(lea, { type: "behavior_validated", label: HOMEWORK }, { at: Date.now() - 7 * MINUTE });
  sim.addEvent(lea, { type: "cheer_sent", cheer: "bravo" }, { at: Date.now() - 5 * MINUTE });
  bridge = await lab.start({
    children: [lea],
    publish: "mqtt",
    env: { REWARD_FACTS_DASHBOARD: "true" },
  });
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
});

afterAll(async () => {
  await browser?.close();
});

describe(`the latest facts, Home Assistant ${version}`, () => {
  it("reads as a diary: each fact once, in French, with its label and its own time, after a restart of either side", async () => {
    const { ha, sim } = lab.rig;
    const lea = sim.children.ordinary.id;
    const journal = () => sim.journal(lea);
    const expected = () =>
      [...journal()]
        .reverse()
        .map((fact) => fact.id)
        .slice(0, 8);
    await ha.waitFor(async () => (await diary()).length === 2, {
      timeoutMs: 60_000,
      description: () => `two facts in Léa's diary (the bridge said: ${bridge.text().slice(-1_500)})`,
    });
    const [cheer, homework] = await diary();
    expect(homework?.text).toBe(`Léa : ${fill(fr.diary.behavior_validated, { label: HOMEWORK })}`);
    expect(cheer?.text).toBe(`Léa : ${fill(fr.diary.cheer_sent, { cheer: fr.diary.cheer_bravo })}`);
    expect(Date.parse(homework?.at ?? "")).toBe(Date.parse(journal()[0]?.at ?? ""));
    expect((await ha.getState(DIARY))?.state).toBe(cheer?.text);

    // Home Assistant restarts: the diary is back, the same facts, none twice.
    await ha.restart();
    await ha.waitFor(async () => (await diary()).length === 2, { timeoutMs: 30_000 });
    expect((await diary()).map((fact) => fact.id)).toEqual(expected());

    // The bridge restarts (the same data folder), and a new fact comes: on top, once.
    expect(await bridge.stop()).toBe(0);
    bridge = lab.again(bridge);
    sim.addEvent(lea, { type: "menu_item_consumed", label: "Dessin animé" });
    await ha.waitFor(async () => (await diary()).length === 3, {
      timeoutMs: 60_000,
      description: () => `the new fact in Léa's diary (the bridge said: ${bridge.text().slice(-1_500)})`,
    });
    expect((await diary()).map((fact) => fact.id)).toEqual(expected());
    expect((await diary())[0]?.text).toBe(
      `Léa : ${fill(fr.diary.menu_item_consumed, { label: "Dessin animé" })}`,
    );

    // What a parent reads on the dashboard: the lines with their times, no unavailable row, no English.
    const page = await openFrontend(browser, tokens, "/reward-facts/today", {
      width: 1280,
      height: 900,
      locale: "fr-FR",
    });
    try {
      const lines = (await diary()).map((fact) => `${fact.text} · ${hourMinute(fact.at)}`);
      const text = () => visibleTexts(page, "hui-view").then((texts) => texts.join(" "));
      const missing = async () => {
        const seen = await text();
        return lines.filter((line) => !seen.includes(line));
      };
      await expect.poll(missing, { timeout: 45_000, interval: 500 }).toEqual([]);
      const seen = await text();
      expect(seen).toContain(fr.dashboard.latest_facts);
      expect(seen).not.toMatch(/Indisponible|Inconnu/);
      expect(englishLeft(seen), seen).toEqual([]);
      await screenshot(page, "latest-facts-fr", { docs: true });
    } finally {
      await page.context().close();
    }
  }, 300_000);
});
