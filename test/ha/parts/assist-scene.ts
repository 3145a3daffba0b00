import { afterAll, beforeAll } from "vitest";
import { fill } from "../../../src/ha/texts/texts.js";
import { type ApiSimulator, ManualClock } from "../../../src/simulator/index.js";
import { type HomeAssistantInstance, type HomeAssistantVersion, startMqttRig } from "../../lab/index.js";
import type { BridgeProcess } from "../../support/bridge-process.js";
import { latestAfternoon } from "../../support/household-days.js";
import { suiteOnRig } from "../../support/lab-bridges.js";

// The opening of the Assist suites (assist-answers, assist-stale): Home Assistant with its
// conversation agent and people, a bridge in MQTT mode with no blueprint imported, an afternoon
// with Léa at home, Noah at the other home and Inès waiting for the app (the simulator's clock
// set there), and the ways a test asks.

/** When an answer says its figure is old: three readings of 15 s (the option's shortest). */
export const STALE_AFTER_S = 45;
export const READ_STATUS = "sensor.reward_facts_lea_read_status";

export interface AssistScene {
  readonly ha: HomeAssistantInstance;
  readonly sim: ApiSimulator;
  readonly bridge: BridgeProcess;
  /** What Home Assistant's own agent answers, as a satellite (`device_id`) or the Assist dialog sends it. */
  ask(text: string, language?: string, deviceId?: string): Promise<string>;
  setLanguage(language: string): Promise<unknown>;
  waitUntil<T>(check: () => Promise<T | undefined | false>, description: string): Promise<T>;
  /** The bridge's automation, by the id it gives it. */
  bridgeAutomation(): Promise<{ attributes: Record<string, unknown> } | undefined>;
}

export const say = (text: string, values: Record<string, string | number>) => fill(text, values);

/** An instant as Home Assistant's clock (Europe/Paris in the lab) says it in an answer. */
export const hourMinute = (iso: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(
    new Date(iso),
  );

export function assistScene(version: HomeAssistantVersion): AssistScene {
  const clock = new ManualClock(Date.now());
  const lab = suiteOnRig(() =>
    startMqttRig(version, { clock, activity: false }, { extraConfig: "conversation:\nperson:\n" }),
  );
  let bridge: BridgeProcess | undefined;
  const ha = () => lab.rig.ha;
  const scene: AssistScene = {
    get ha() {
      return ha();
    },
    get sim() {
      return lab.rig.sim;
    },
    get bridge() {
      if (!bridge) throw new Error("the scene's bridge is not started");
      return bridge;
    },
    async ask(text, language = "en", deviceId) {
      const result = await ha().wsCommand<{ response: { speech?: { plain?: { speech?: string } } } }>({
        type: "conversation/process",
        text,
        language,
        ...(deviceId ? { device_id: deviceId } : {}),
      });
      return result.response.speech?.plain?.speech ?? "";
    },
    setLanguage: (language) => ha().wsCommand({ type: "config/core/update", language }),
    waitUntil: <T>(check: () => Promise<T | undefined | false>, description: string) =>
      ha().waitFor(check, {
        timeoutMs: 90_000,
        description: () => `${description} (the bridge said: ${bridge?.text().slice(-1_500)})`,
      }) as Promise<T>,
    bridgeAutomation: async () =>
      (await ha().getStates()).find(
        (state) =>
          state.entity_id.startsWith("automation.") && state.attributes.id === "reward_facts_assist_answers",
      ),
  };
  beforeAll(async () => {
    const { sim } = lab.rig;
    const { ordinary: lea, custody: noah } = sim.children;
    clock.set(
      latestAfternoon(sim, Date.now(), (at) => {
        clock.set(at);
        const today = sim.today(lea.id);
        return today.isMyDay && today.session?.running !== true && !sim.isMyDay(noah.id);
      }),
    );
    await scene.setLanguage("en");
    // Read every few seconds (the tests' pace), stale after three readings of the user's shortest.
    bridge = await lab.start({
      publish: "mqtt",
      env: { REWARD_FACTS_TODAY_INTERVAL_SECONDS: String(STALE_AFTER_S / 3) },
    });
    await scene.waitUntil(scene.bridgeAutomation, "the bridge's automation");
  }, 180_000);
  afterAll(async () => {
    await scene.setLanguage("en").catch(() => undefined);
  });
  return scene;
}
