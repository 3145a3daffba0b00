import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId } from "../../../src/ha/entities/entity-names.js";
import { fr } from "../../../src/ha/texts/fr.js";
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
import { HOUSEHOLD_ZONE } from "../dashboard/rewards-page.js";
import { importScreenTime } from "../dashboard/screen-time-week.js";

// The dashboard's week on a fresh install, in a French Home Assistant: before the recorder has
// statistics of two days, the card says that it fills day by day and gives today's minutes from
// the bridge's own readings (never "no statistics found"); once the statistics hold days, Home
// Assistant's chart. The sections layout (2024.11 and later) alone has the week's card.

const version = testedHomeAssistantVersion();
const WEEK = "sensor.reward_facts_lea_screen_time_days";
// As dashboard-browser.test says: the recorder's own statistics of the live sensor would land on
// the imported ones at its next compile; the test's figures stay the ones it imports.
const RECORDER = [
  "recorder:",
  "  exclude:",
  "    entity_globs:",
  "      - sensor.reward_facts_*_minutes_consumed",
  "history:",
].join("\n");

const lab = suiteOnRig(() => startMqttRig(version, { activity: false }, { extraConfig: RECORDER }));
let bridge: BridgeProcess;
let browser: Browser;
let tokens: FrontendTokens;

interface WeekDay {
  date: string;
  minutes: number;
  source: string;
}

const week = async () => {
  const state = await lab.rig.ha.getState(WEEK);
  return { state: state?.state, days: (state?.attributes.days as WeekDay[] | undefined) ?? [] };
};

beforeAll(async () => {
  const { ha, sim } = lab.rig;
  await ha.wsCommand({ type: "config/core/update", language: "fr" });
  bridge = await lab.start({
    children: [sim.children.ordinary.id],
    publish: "mqtt",
    env: { REWARD_FACTS_DASHBOARD: "true" },
  });
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
});

afterAll(async () => {
  await browser?.close();
});

const weekCardText = async () => {
  const page = await openFrontend(browser, tokens, "/reward-facts/today", {
    width: 1280,
    height: 1100,
    locale: "fr-FR",
  });
  return page;
};

describe(`the week on a fresh install, Home Assistant ${version}`, () => {
  it("says it fills day by day with today's minutes, then draws Home Assistant's chart once statistics hold days", async () => {
    const { ha, sim } = lab.rig;
    const lea = sim.children.ordinary.id;
    const today = sim.today(lea);
    if (!today.isMyDay) throw new Error("the scene needs Léa at home today");
    await ha.waitFor(async () => (await week()).state === "filling" && (await week()).days.length === 1, {
      timeoutMs: 60_000,
      description: () => `Léa's week filling (the bridge said: ${bridge.text().slice(-1_500)})`,
    });
    // Today's figure is the bridge's reading of her minutes used, as her sensor shows it.
    const used = async () => Number((await ha.getState(childEntityId("lea", "minutes_consumed")))?.state);
    await ha.waitFor(async () => (await week()).days[0]?.minutes === (await used()), { timeoutMs: 30_000 });
    expect((await week()).days).toEqual([{ date: today.date, minutes: await used(), source: "bridge" }]);

    const page = await weekCardText();
    try {
      const text = () => visibleTexts(page, "hui-view").then((texts) => texts.join(" "));
      await expect.poll(text, { timeout: 45_000, interval: 500 }).toContain(fr.dashboard.week_filling);
      const seen = await text();
      expect(seen).toContain(`${fr.dashboard.week} `);
      expect(seen).toMatch(new RegExp(`${fr.dashboard.today} · \\d+ min`));
      expect(seen).not.toContain("Aucune statistique");
      expect(englishLeft(seen), seen).toEqual([]);
      expect(await page.locator("hui-statistics-graph-card").count()).toBe(0);
      await screenshot(page, "week-day-one-fr", { docs: true });
    } finally {
      await page.context().close();
    }

    // A week of statistics (as days of the recorder would leave), and the bridge started again:
    // it asks for them at once, and the chart takes the card's place.
    const minutes = [35, 30, 45, 0, 60, 15, 40, 20];
    await importScreenTime(ha, childEntityId("lea", "minutes_consumed"), minutes, HOUSEHOLD_ZONE);
    expect(await bridge.stop()).toBe(0);
    bridge = lab.again(bridge);
    await ha.waitFor(async () => (await week()).state === "chart", {
      timeoutMs: 60_000,
      description: () => `Léa's week as a chart (the bridge said: ${bridge.text().slice(-1_500)})`,
    });
    const days = (await week()).days;
    expect(days.filter((one) => one.source === "statistics").length).toBeGreaterThanOrEqual(7);
    const charted = await weekCardText();
    try {
      await expect
        .poll(() => charted.locator("hui-statistics-graph-card").count(), { timeout: 45_000, interval: 500 })
        .toBe(1);
      expect(await visibleTexts(charted, "hui-view").then((texts) => texts.join(" "))).not.toContain(
        fr.dashboard.week_filling,
      );
    } finally {
      await charted.context().close();
    }
  }, 300_000);
});
