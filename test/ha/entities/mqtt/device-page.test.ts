import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId } from "../../../../src/ha/entities/entity-names.js";
import { type ApiSimulator, ManualClock } from "../../../../src/simulator/index.js";
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
} from "../../../lab/index.js";
import { latestAfternoon } from "../../../support/household-days.js";
import { suiteOnRig } from "../../../support/lab-bridges.js";

// A child's device page in Home Assistant (Settings → Devices), as the bridge makes it in MQTT
// mode through a real Mosquitto: what a parent opens to find a child's entities and to build an
// automation on its facts. Drawn by Home Assistant's own frontend in Chromium; its picture is one
// DOCS shows (`npm run screenshots`).

const version = testedHomeAssistantVersion();
const clock = new ManualClock(Date.now());

const lab = suiteOnRig(() => startMqttRig(version, { clock }));
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let browser: Browser;
let tokens: FrontendTokens;

beforeAll(async () => {
  ({ ha, sim } = lab.rig);
  // An afternoon: the day's behaviours settled, points and minutes to show, and no planned session
  // running (its end would read from the browser's real clock, "a day ago").
  const lea = sim.children.ordinary;
  clock.set(
    latestAfternoon(sim, Date.now(), (at) => {
      clock.set(at);
      const today = sim.today(lea.id);
      return today.isMyDay && today.session?.running !== true;
    }),
  );
  await lab.start({ children: [lea.id], publish: "mqtt" });
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
});

afterAll(async () => {
  await browser?.close();
});

describe(`a child's device page in MQTT mode, Home Assistant ${version}`, () => {
  it("lists the child's sensors with the values the service gives, under the child's name", async () => {
    const lea = sim.children.ordinary;
    const today = sim.today(lea.id);
    if (!today.isMyDay) throw new Error("Léa is always at home");
    await ha.waitFor(
      async () =>
        (await ha.getState(childEntityId("lea", "minutes_remaining")))?.state ===
        String(today.minutesRemaining),
      { timeoutMs: 90_000, description: "Léa's minutes through MQTT" },
    );
    const devices = await ha.wsCommand<Array<{ id: string; name: string; identifiers: string[][] }>>({
      type: "config/device_registry/list",
    });
    const device = devices.find((d) => d.identifiers.some(([, id]) => id === `reward_facts_${lea.id}`));
    if (!device) throw new Error("no device for Léa");
    const page = await openFrontend(browser, tokens, `/config/devices/device/${device.id}`, {
      width: 1280,
      height: 1000,
    });
    try {
      const text = () => visibleTexts(page, "ha-config-device-page").then((texts) => texts.join(" "));
      await expect
        .poll(text, { timeout: 45_000, interval: 500 })
        // A duration in minutes, as each release abbreviates it: "15m" on 2026, "15 min" before.
        .toMatch(new RegExp(`Minutes remaining ${today.minutesRemaining} ?m(in)? `))
        .catch(async (error: unknown) => {
          await screenshot(page, "failure-device-page");
          throw error;
        });
      const seen = await text();
      expect(seen).toContain("Léa");
      expect(seen).toMatch(new RegExp(`Streak ${today.streakDays} ?d`));
      expect(seen).toMatch(new RegExp(`Points ${today.points} `));
      expect(seen).toContain(`Period ${today.period}`);
      expect(seen).toContain("Connected via Reward Facts bridge");
      // The journal's event entity is there (it has fired nothing yet: the bridge reads facts from
      // the real day's start, and the simulator's afternoon is an earlier one); nothing unavailable.
      expect(seen).toContain("Events Journal");
      expect(seen).not.toMatch(/unavailable/i);
      await screenshot(page, "device-page-mqtt", { docs: true });
    } finally {
      await page.context().close();
    }
  }, 150_000);
});
