import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childEntityId } from "../../../src/ha/entity-names.js";
import { type ApiSimulator, ManualClock } from "../../../src/simulator/index.js";
import {
  type FrontendTokens,
  type HomeAssistantInstance,
  launchChromium,
  type MqttRig,
  openFrontend,
  screenshot,
  signInTestUser,
  startMqttRig,
  testedHomeAssistantVersion,
  visibleTexts,
} from "../../lab/index.js";
import { BridgeProcess } from "../../support/bridge-process.js";
import { latestAfternoon } from "../../support/household-days.js";

// A child's device page in Home Assistant (Settings → Devices), as the bridge makes it in MQTT
// mode through a real Mosquitto: what a parent opens to find a child's entities and to build an
// automation on its facts. Drawn by Home Assistant's own frontend in Chromium; its picture is one
// DOCS shows (`npm run screenshots`).

const version = testedHomeAssistantVersion();
const clock = new ManualClock(Date.now());

let rig: MqttRig;
let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let bridge: BridgeProcess;
let browser: Browser;
let tokens: FrontendTokens;

beforeAll(async () => {
  rig = await startMqttRig(version, { clock });
  ({ ha, sim } = rig);
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
  bridge = new BridgeProcess({
    ...rig.bridgeEnv,
    REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
    REWARD_FACTS_TODAY_INTERVAL_SECONDS: "15",
    REWARD_FACTS_CHILDREN: sim.children.ordinary.id,
    REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-device-page-")),
    REWARD_FACTS_PUBLISH: "mqtt",
  }).start();
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await bridge?.stop();
  await rig?.stop();
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
