import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BLUEPRINT_SOURCE,
  blueprintName,
  offeredBlueprints,
} from "../../../src/ha/parts/bridge-blueprints.js";
import { removeFromHomeAssistant } from "../../../src/ha/removal/removal.js";
import type { EventRecorder } from "../../lab/index.js";
import {
  launchChromium,
  openFrontend,
  screenshot,
  signInTestUser,
  startMqttRig,
  testedHomeAssistantVersion,
  visibleTexts,
} from "../../lab/index.js";
import { stringifyHaYaml } from "../../support/blueprint-yaml.js";
import { LogCollector } from "../../support/engine-rig.js";
import { suiteOnRig } from "../../support/lab-bridges.js";

// The bridge offers its blueprints in Home Assistant itself, in the household's language: listed
// in Settings → Blueprints with no file copied and no link followed, an automation made from one
// runs (the test fact), a person's change is left alone, the removal takes them away unless in
// use. Releases before 2024.10 cannot read them: nothing offered there, said once.

const version = testedHomeAssistantVersion();
const readsThem = version !== "2024.3.3";
const lab = suiteOnRig(() => startMqttRig(version));

interface Listed {
  metadata?: { name?: string; source_url?: string };
  error?: string;
}
const listBlueprints = () =>
  lab.rig.ha.wsCommand<Record<string, Listed>>({ type: "blueprint/list", domain: "automation" });
const ours = async () =>
  Object.fromEntries(
    Object.entries(await listBlueprints()).filter(([path]) => path.startsWith("reward_facts_bridge/")),
  );

let facts: EventRecorder;
let celebrated: EventRecorder;

beforeAll(async () => {
  facts = await lab.rig.ha.subscribeEvents("reward_facts_event");
  celebrated = await lab.rig.ha.subscribeEvents("rf_celebrated");
});

afterAll(async () => {
  await facts?.close();
  await celebrated?.close();
});

// Each release runs what it can show: nothing is skipped, the other release's tests are not defined.
if (readsThem)
  describe(`the bridge's blueprints in Home Assistant ${version}`, () => {
    it("are listed in French in a French house, and an automation made from one runs", async () => {
      const { ha, sim } = lab.rig;
      const lea = sim.children.ordinary;
      await ha.wsCommand({ type: "config/core/update", language: "fr" });
      const bridge = await lab.start({ children: [lea.id], publish: "mqtt" });
      const listed = await ha
        .waitFor(
          async () => {
            const found = await ours();
            return Object.keys(found).length === offeredBlueprints("fr").length ? found : undefined;
          },
          { timeoutMs: 120_000, description: "every blueprint of the bridge's" },
        )
        .catch(async (error: unknown) => {
          throw new Error(
            `${(error as Error).message}\n${JSON.stringify(await ours())}\n${bridge.output.join("\n")}`,
          );
        });
      for (const offered of offeredBlueprints("fr")) {
        expect(listed[offered.path]?.metadata?.name, offered.path).toBe(blueprintName(offered.yaml));
        expect(listed[offered.path]?.metadata?.source_url).toBe(offered.sourceUrl);
      }
      expect(listed["reward_facts_bridge/celebrate.yaml"]?.metadata?.name).toMatch(/^Reward Facts - fêter/);

      // As a parent sees them: Settings → Automations & scenes → Blueprints, in Chromium.
      const browser = await launchChromium();
      try {
        const page = await openFrontend(browser, await signInTestUser(ha), "/config/blueprint/dashboard", {
          width: 1280,
          height: 900,
          locale: "fr-FR",
        });
        const names = offeredBlueprints("fr").map((offered) => blueprintName(offered.yaml) as string);
        await ha.waitFor(
          async () => {
            const shown = (await visibleTexts(page, "ha-blueprint-overview")).join("\n");
            return names.every((name) => shown.includes(name));
          },
          { timeoutMs: 60_000, description: "the blueprints on the Blueprints page" },
        );
        await screenshot(page, `blueprints-page-fr-${version}`, { viewportOnly: true });
      } finally {
        await browser.close();
      }

      // An automation a parent makes from it, on Léa's device; the test fact runs it.
      const devices = await ha.wsCommand<Array<{ id: string; identifiers: string[][] }>>({
        type: "config/device_registry/list",
      });
      const device = devices.find((d) => d.identifiers.some(([, id]) => id === `reward_facts_${lea.id}`));
      // As the automation editor saves one: into automations.yaml, then reloaded.
      await writeFile(
        join(ha.configDir, "automations.yaml"),
        stringifyHaYaml([
          {
            id: "rf_celebrate_lea",
            alias: "Célébrer Léa",
            use_blueprint: {
              path: "reward_facts_bridge/celebrate.yaml",
              input: {
                child: device?.id,
                celebrate_actions: [{ event: "rf_celebrated", event_data: { message: "{{ message }}" } }],
              },
            },
          },
        ]),
      );
      await ha.callService("automation", "reload");
      await ha.waitForState("automation.celebrer_lea", "on", { timeoutMs: 30_000 });
      await ha.waitForState("button.reward_facts_lea_test_fact", (state) => state.state !== "unavailable", {
        timeoutMs: 60_000,
      });
      await ha.callService("button", "press", { entity_id: "button.reward_facts_lea_test_fact" });
      const ran = await ha.waitFor(() => celebrated.events[0], {
        timeoutMs: 30_000,
        description: "the automation made from the bridge's blueprint",
      });
      expect(String(ran.data.message)).toMatch(/Léa/);
      expect(bridge.output.filter((line) => line.includes("offered the bridge's blueprints"))).toHaveLength(
        1,
      );
      await bridge.stop();
    }, 300_000);

    it("keeps them as they are across a restart, leaves a person's change alone, updates them in English", async () => {
      const { ha, sim } = lab.rig;
      const lea = sim.children.ordinary;
      // A person renamed one (as editing its file in the config folder would).
      const minutesLow = offeredBlueprints("fr").find((b) => b.path.endsWith("/minutes_low.yaml"));
      await ha.wsCommand({
        type: "blueprint/save",
        domain: "automation",
        path: "reward_facts_bridge/minutes_low.yaml",
        yaml: (minutesLow?.yaml ?? "").replace(/^ {2}name: .+$/m, "  name: Nos minutes à nous"),
        source_url: minutesLow?.sourceUrl,
        allow_override: true,
      });
      await ha.wsCommand({ type: "config/core/update", language: "en" });
      const bridge = await lab.start({ children: [lea.id], publish: "mqtt" });
      const listed = await ha.waitFor(
        async () => {
          const found = await ours();
          // Every one but the renamed one saved in English (they are saved one after another).
          const english = offeredBlueprints("en").filter((b) => !b.path.endsWith("/minutes_low.yaml"));
          return english.every((b) => found[b.path]?.metadata?.source_url === b.sourceUrl)
            ? found
            : undefined;
        },
        { timeoutMs: 120_000, description: "the blueprints in English" },
      );
      for (const offered of offeredBlueprints("en")) {
        if (offered.path.endsWith("/minutes_low.yaml")) continue;
        expect(listed[offered.path]?.metadata?.name, offered.path).toBe(blueprintName(offered.yaml));
      }
      expect(listed["reward_facts_bridge/minutes_low.yaml"]?.metadata?.name).toBe("Nos minutes à nous");
      expect(
        bridge.output.filter((line) => line.includes("was changed in Home Assistant: left as it is")),
      ).toHaveLength(1);
      // The automation made from the French copy runs on the English one.
      expect((await ha.getState("automation.celebrer_lea"))?.state).toBe("on");
      // Another run with nothing to change saves nothing.
      await bridge.stop();
      const again = lab.again(bridge);
      await ha.waitFor(() => again.output.some((line) => line.includes("following a child")), {
        timeoutMs: 60_000,
        description: "the next run following Léa",
      });
      // Said once the parts' turn at the connection is over, the blueprints' included.
      await ha.waitFor(
        () => again.output.some((line) => line.includes("Home Assistant is running: publishing")),
        {
          timeoutMs: 30_000,
          description: "the next run's connection done",
        },
      );
      expect(again.output.filter((line) => line.includes("was changed in Home Assistant"))).toHaveLength(1);
      expect(again.output.filter((line) => line.includes("offered the bridge's blueprints"))).toHaveLength(0);
      await again.stop();
    }, 300_000);

    it("are taken away by the removal, but for one an automation uses and one a person changed", async () => {
      const { ha } = lab.rig;
      const logs = new LogCollector();
      const result = await removeFromHomeAssistant({
        url: ha.url,
        token: ha.token,
        logger: logs.logger([ha.token]),
        signal: new AbortController().signal,
        requireAdmin: true,
        broker: null,
        force: true,
      });
      // Every one, less celebrate (the automation uses it) and minutes_low (a person's now).
      expect(result.counts.blueprints).toBe(offeredBlueprints("en").length - 2);
      expect(result.failed).toEqual([]);
      expect(Object.keys(await ours()).sort()).toEqual([
        "reward_facts_bridge/celebrate.yaml",
        "reward_facts_bridge/minutes_low.yaml",
      ]);
      expect(logs.matching(/automations use it/)).toHaveLength(1);
      expect((await listBlueprints())["reward_facts_bridge/celebrate.yaml"]?.metadata?.source_url).toMatch(
        new RegExp(`^${BLUEPRINT_SOURCE}/`),
      );
    }, 120_000);
  });
else
  describe(`the bridge's blueprints in Home Assistant ${version}`, () => {
    it("are not offered where Home Assistant cannot read them, and the log says so once", async () => {
      const { ha, sim } = lab.rig;
      const bridge = await lab.start({ children: [sim.children.ordinary.id], publish: "mqtt" });
      await ha.waitFor(() => bridge.output.some((line) => line.includes("older than 2024.10")), {
        timeoutMs: 120_000,
        description: "the line that says why",
      });
      expect(await ours()).toEqual({});
      expect(bridge.output.filter((line) => line.includes("older than 2024.10"))).toHaveLength(1);
      await bridge.stop();
    }, 300_000);
  });
