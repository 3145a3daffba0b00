import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId, STATUS_ENTITY_ID } from "../../../src/ha/entities/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";
import { type ApiSimulator, ManualClock } from "../../../src/simulator/index.js";
import {
  type FrontendTokens,
  type HomeAssistantInstance,
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
import { latestAfternoon } from "../../support/household-days.js";
import { suiteOnRig } from "../../support/lab-bridges.js";

// The household's language is Home Assistant's own (Settings → System → General): set to French,
// what the bridge writes reads French (the device page's names, the status, a child's reason, the
// notification, the dashboard), seen through Home Assistant's registry and states, and drawn by its
// frontend in Chromium; set back to English, English again, without a restart; set to a language
// the bridge has no texts of, English, said once. Log lines stay English.

const version = testedHomeAssistantVersion();
const clock = new ManualClock(Date.now());

const lab = suiteOnRig(() => startMqttRig(version, { clock }));
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let bridge: BridgeProcess;
let browser: Browser;
let tokens: FrontendTokens;

interface RegistryEntry {
  entity_id: string;
  unique_id: string;
  original_name: string | null;
}

const setLanguage = (language: string) => ha.wsCommand({ type: "config/core/update", language });
const registry = () => ha.wsCommand<RegistryEntry[]>({ type: "config/entity_registry/list" });
const nameOf = async (entityId: string) =>
  (await registry()).find((entry) => entry.entity_id === entityId)?.original_name;
const notifications = () =>
  ha.wsCommand<Array<{ notification_id: string; title: string; message: string }>>({
    type: "persistent_notification/get",
  });
/** The names of the bridge's helpers (its delivery records and its lease), sorted. */
const helperNames = async () =>
  (await ha.wsCommand<Array<{ id: string; name: string }>>({ type: "input_text/list" }))
    .filter((item) => item.id.startsWith("reward_facts_"))
    .map((item) => item.name)
    .sort();
const recordNames = (texts: typeof en) =>
  ["Léa", "Inès"]
    .flatMap((child) => [
      texts.helpers.delivery_record.replace("{child}", child),
      texts.helpers.derived_record.replace("{child}", child),
    ])
    .concat(texts.helpers.lease)
    .sort();
const dashboardTitle = async () =>
  (await ha.wsCommand<Array<{ url_path: string; title: string }>>({ type: "lovelace/dashboards/list" })).find(
    (dashboard) => dashboard.url_path === "reward-facts",
  )?.title;

beforeAll(async () => {
  ({ ha, sim } = lab.rig);
  // An afternoon with Léa at home, values to show and no session running.
  const lea = sim.children.ordinary;
  clock.set(
    latestAfternoon(sim, Date.now(), (at) => {
      clock.set(at);
      const today = sim.today(lea.id);
      return today.isMyDay && today.session?.running !== true;
    }),
  );
  await setLanguage("fr");
  bridge = await lab.start({
    children: [sim.children.ordinary.id, sim.children.unsynced.id],
    publish: "mqtt",
    env: { REWARD_FACTS_DASHBOARD: "true" },
  });
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
});

afterAll(async () => {
  await browser?.close();
});

const waitUntil = async <T>(
  check: () => Promise<T | undefined | false>,
  description: string,
  timeoutMs = 60_000,
) => {
  const found = await ha.waitFor(check, {
    timeoutMs,
    description: () => `${description} (the bridge said: ${bridge.text().slice(-1_500)})`,
  });
  return found as T;
};

describe(`the household's language, Home Assistant ${version}`, () => {
  it("set to French: names, status, reason and dashboard in French, on the device page and the dashboard too", async () => {
    const minutes = childEntityId("lea", "minutes_remaining");
    await waitUntil(
      async () => (await nameOf(minutes)) === fr.entities.minutes_remaining,
      "Léa's minutes named in French",
    );
    await waitUntil(
      async () => (await nameOf(childEntityId("lea", "streak"))) === fr.entities.streak,
      "Léa's streak named in French",
    );
    await waitUntil(
      async () => (await ha.getState(STATUS_ENTITY_ID))?.attributes.message === fr.status.ok,
      "the status's message in French",
    );
    // The bridge device's main entity, named as the device: "Pont Reward Facts", no "État" after.
    expect((await ha.getState(STATUS_ENTITY_ID))?.attributes.friendly_name).toBe(fr.devices.bridge_name);
    await waitUntil(
      async () =>
        (await ha.getState("sensor.reward_facts_ines_read_status"))?.state === fr.reasons.rules_not_synced,
      "Inès's reason in French",
    );
    expect((await ha.getState("sensor.reward_facts_ines_read_status"))?.attributes.reason_kind).toBe(
      "rules_not_synced",
    );
    await waitUntil(
      async () => (await dashboardTitle()) === fr.dashboard.title,
      "the dashboard named in French",
    );
    const config = await ha.wsCommand<{ views: Array<{ title: string }> }>({
      type: "lovelace/config",
      url_path: "reward-facts",
    });
    expect(config.views[0]?.title).toBe(fr.dashboard.today_view);
    // Its helpers too (Settings → Helpers): the delivery records and the lease, named in French.
    await waitUntil(
      async () => JSON.stringify(await helperNames()) === JSON.stringify(recordNames(fr)),
      "the bridge's helpers named in French",
    );

    // What a parent reads, drawn by Home Assistant's frontend in a French browser.
    const devices = await ha.wsCommand<Array<{ id: string; identifiers: string[][] }>>({
      type: "config/device_registry/list",
    });
    const lea = devices.find((d) =>
      d.identifiers.some(([, id]) => id === `reward_facts_${sim.children.ordinary.id}`),
    );
    if (!lea) throw new Error("no device for Léa");
    const devicePage = await openFrontend(browser, tokens, `/config/devices/device/${lea.id}`, {
      width: 1280,
      height: 1000,
      locale: "fr-FR",
    });
    try {
      const text = () => visibleTexts(devicePage, "ha-config-device-page").then((texts) => texts.join(" "));
      await expect.poll(text, { timeout: 45_000, interval: 500 }).toContain(fr.entities.minutes_remaining);
      const seen = await text();
      expect(seen).toContain(fr.entities.points);
      expect(seen).toContain(fr.devices.child_model);
      expect(seen).not.toContain(en.entities.minutes_remaining);
      await screenshot(devicePage, "device-page-mqtt-fr", { docs: true });
    } finally {
      await devicePage.context().close();
    }
    const dashboard = await openFrontend(browser, tokens, "/reward-facts/today", {
      width: 1280,
      height: 900,
      locale: "fr-FR",
    });
    try {
      const text = () => visibleTexts(dashboard, "hui-view").then((texts) => texts.join(" "));
      // The sections are drawn one after another: all of them awaited, not the first one only.
      const wanted = [
        fr.dashboard.minutes_left,
        fr.dashboard.today,
        `Inès : ${fr.reasons.rules_not_synced}`,
        fr.dashboard.advice_rules_not_synced,
      ];
      await expect
        .poll(
          async () => {
            const seen = await text();
            return wanted.filter((words) => !seen.includes(words));
          },
          {
            timeout: 45_000,
            interval: 500,
          },
        )
        .toEqual([]);
      // A walk of the whole view: no English word a parent reads (the bridge's English words,
      // a raw state or fact type), the period in words.
      const seen = await text();
      expect(englishLeft(seen), seen).toEqual([]);
      const leaToday = sim.today(sim.children.ordinary.id);
      if (!leaToday.isMyDay) throw new Error("the scene needs Léa at home");
      expect(seen).toContain(fr.dashboard[`period_${leaToday.period}` as const]);
      await screenshot(dashboard, "dashboard-fr");
    } finally {
      await dashboard.context().close();
    }
  }, 300_000);

  it("a notification in French, with the moment in French; reworded when the language changes", async () => {
    sim.revokeToken(sim.tokens.household);
    const token = async () => (await notifications()).find((n) => n.notification_id === "reward_facts_token");
    const french = await waitUntil(async () => {
      const shown = await token();
      return shown?.title === fr.notifications.token_title ? shown : undefined;
    }, "the token's notification in French");
    // The moment as the family reads it: a French month, the household's day and hour.
    expect(french.message).toMatch(
      /depuis le \d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) \d{4} (à )?\d{2}:\d{2}/,
    );
    await setLanguage("en");
    const english = await waitUntil(async () => {
      const shown = await token();
      return shown?.title === en.notifications.token_title ? shown : undefined;
    }, "the token's notification reworded in English");
    expect(english.message).toMatch(/since \w+ \d{1,2}, \d{4},? (at )?\d{1,2}:\d{2}/);
  }, 120_000);

  it("set back to English: the names and the dashboard follow, without a restart", async () => {
    await setLanguage("en");
    // The name Home Assistant shows (its registry's original name follows only on later releases).
    await waitUntil(
      async () =>
        (await ha.getState(childEntityId("lea", "minutes_remaining")))?.attributes.friendly_name ===
        `Léa ${en.entities.minutes_remaining}`,
      "Léa's minutes named in English",
    );
    await waitUntil(
      async () => (await dashboardTitle()) === en.dashboard.title,
      "the dashboard named in English",
    );
    // The records follow; the lease keeps the name it was created with (a person may rename it).
    await waitUntil(
      async () =>
        JSON.stringify(await helperNames()) ===
        JSON.stringify(
          [...recordNames(en).filter((name) => name !== en.helpers.lease), fr.helpers.lease].sort(),
        ),
      "the delivery records named in English",
    );
    expect(bridge.running).toBe(true);
  }, 120_000);

  it("set to a language it has no texts of: English, said once", async () => {
    await setLanguage("de");
    await waitUntil(
      async () => bridge.text().includes("no texts in Home Assistant's language"),
      "the fallback said",
    );
    await setLanguage("de");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(
      bridge.output.filter((line) => line.includes("no texts in Home Assistant's language")),
    ).toHaveLength(1);
    expect((await ha.getState(childEntityId("lea", "minutes_remaining")))?.attributes.friendly_name).toBe(
      `Léa ${en.entities.minutes_remaining}`,
    );
  }, 60_000);
});
