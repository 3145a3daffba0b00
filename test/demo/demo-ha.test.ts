import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import {
  type EventRecorder,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../lab/index.js";

// `npm run demo` with HA_URL and HA_TOKEN, against a real Home Assistant that has an automation
// of the house on the real event: the demo's simulated children must never run it, and nothing of
// the demo may stay in Home Assistant after it stops.

const version = testedHomeAssistantVersion();
const main = fileURLToPath(new URL("../../src/demo/main.ts", import.meta.url));
const root = fileURLToPath(new URL("../..", import.meta.url));

// Old automation syntax: the harness's automations load on every release.
const automations = `
- id: house_tv_off
  alias: House TV off
  mode: queued
  trigger: [{platform: event, event_type: reward_facts_event}]
  action: [{service: input_boolean.turn_on, target: {entity_id: input_boolean.flag}}]
- id: count_demo_facts
  alias: Count demo facts
  mode: queued
  max: 1000
  trigger: [{platform: event, event_type: reward_facts_demo_event}]
  action: [{service: counter.increment, target: {entity_id: counter.demo_facts}}]
`;
const extraConfig = "counter:\n  demo_facts:\n    initial: 0\n    step: 1\n";

let ha: HomeAssistantInstance;
let realEvents: EventRecorder;
let demo: ChildProcess | undefined;
let scratch: string;

beforeAll(async () => {
  ha = await startHomeAssistant({ version, automations, extraConfig });
  realEvents = await ha.subscribeEvents("reward_facts_event");
  scratch = await mkdtemp(join(tmpdir(), "rf-demo-ha-"));
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  if (demo && demo.exitCode === null) demo.kill("SIGKILL");
  await realEvents?.close();
  await ha?.stop();
  await rm(scratch, { recursive: true, force: true });
});

const demoStates = async () =>
  (await ha.getStates()).filter((state) => /^[a-z_]+\.reward_facts_demo_/.test(state.entity_id));

const demoRecords = async () =>
  (
    await ha.wsCommand<Array<{ entity_id: string; platform: string; unique_id: string }>>({
      type: "config/entity_registry/list",
    })
  ).filter((entry) => entry.platform === "input_text" && entry.unique_id.startsWith("reward_facts_demo_"));

/**
 * The demo's entities Assist is offered, as Settings → Voice assistants → Expose lists them: an entity
 * exposed to no assistant is not there (2026.11 leaves it out of the command's answer; older releases
 * list it with every assistant false).
 */
const demoExposed = async () =>
  Object.entries(
    (
      await ha.wsCommand<{ exposed_entities: Record<string, Record<string, boolean>> }>({
        type: "homeassistant/expose_entity/list",
      })
    ).exposed_entities,
  )
    .filter(
      ([id, assistants]) =>
        /^[a-z_]+\.reward_facts_demo_/.test(id) && Object.values(assistants).some(Boolean),
    )
    .map(([id]) => id);

const demoDashboards = async () =>
  (await ha.wsCommand<Array<{ url_path: string }>>({ type: "lovelace/dashboards/list" })).filter(
    (dashboard) => dashboard.url_path === "reward-facts-demo",
  );

describe(`the demo publishing to a real Home Assistant ${version}`, () => {
  it("keeps apart from the house's automations, under ids of its own, with a dashboard of its own, and leaves nothing when it stops", async () => {
    // --start 20:00: the day's facts are in the journal already, so they flow at the first poll.
    const line = dieWithParentQuickly(process.execPath, ["--import", "tsx", main, "--start", "20:00"]);
    demo = spawn(line.command, line.args, {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? "",
        TZ: "Europe/Paris",
        TMPDIR: scratch,
        HA_URL: ha.url,
        HA_TOKEN: ha.token,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [demo.stdout, demo.stderr])
      stream?.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
      });
    const exited = once(demo, "exit") as Promise<[number | null, NodeJS.Signals | null]>;

    // The demo's facts reach Home Assistant as its own event (counted by the demo's automation),
    // and its children's states, read after their first facts, follow.
    await ha.waitFor(
      async () => {
        const counter = await ha.getState("counter.demo_facts");
        const read = await Promise.all(
          ["lea", "ines"].map((child) => ha.getState(`sensor.reward_facts_demo_${child}_minutes_remaining`)),
        );
        return Number(counter?.state) >= 3 && read.every(Boolean);
      },
      {
        timeoutMs: 60_000,
        description: () =>
          `three demo facts counted and the children's states in Home Assistant; the demo said:\n${output}`,
      },
    );
    // …its children under ids of their own, its status too, and its delivery records.
    const during = new Map((await demoStates()).map((state) => [state.entity_id, state]));
    expect(during.get("sensor.reward_facts_demo_lea_minutes_remaining")?.attributes).toMatchObject({
      child_name: "Léa",
      unit_of_measurement: "min",
    });
    expect(during.get("binary_sensor.reward_facts_demo_noah_my_day")).toBeDefined();
    expect(during.get("sensor.reward_facts_demo_ines_minutes_remaining")?.attributes).toMatchObject({
      reason: "no rules synced yet",
    });
    expect(during.has("sensor.reward_facts_demo_status")).toBe(true);
    // Two per child: her journal's, and her derived facts'.
    const records = (await demoRecords()).map((entry) => entry.unique_id);
    expect(
      records.filter((id) => id.startsWith("reward_facts_demo_delivery_derived_")).length,
    ).toBeGreaterThanOrEqual(2);
    expect(
      records.filter((id) => !id.startsWith("reward_facts_demo_delivery_derived_")).length,
    ).toBeGreaterThanOrEqual(2);
    // Its dashboard, for its own children, beside whatever the house has.
    await ha.waitFor(async () => (await demoDashboards()).length === 1, {
      timeoutMs: 15_000,
      description: "the demo's dashboard",
    });
    const shown = JSON.stringify(
      await ha.wsCommand({ type: "lovelace/config", url_path: "reward-facts-demo" }),
    );
    expect(shown).toContain("sensor.reward_facts_demo_lea_minutes_remaining");
    expect(shown).not.toMatch(/\.reward_facts_(?!demo_)/);
    expect(output).toContain("sensor.reward_facts_demo_");
    // Offered to Assist, as a real bridge offers its children's entities: 8 a child read.
    await ha.waitFor(async () => (await demoExposed()).length >= 16, {
      timeoutMs: 15_000,
      description: "the 8 entities of each child read offered to Assist",
    });
    expect(await demoExposed()).toContain("sensor.reward_facts_demo_lea_minutes_remaining");

    // Nothing under the contract's names: no state, no event, the house's automation never ran.
    const contractIds = (await ha.getStates())
      .map((state) => state.entity_id)
      .filter((id) => /^[a-z_]+\.reward_facts_(?!demo_)/.test(id));
    expect(contractIds).toEqual([]);
    expect(realEvents.events).toEqual([]);
    const houseAutomation = await ha.getState("automation.house_tv_off");
    expect(houseAutomation?.state).toBe("on");
    expect(houseAutomation?.attributes.last_triggered).toBeNull();
    expect((await ha.getState("automation.count_demo_facts"))?.attributes.last_triggered).not.toBeNull();
    expect((await ha.getState("input_boolean.flag"))?.state).toBe("off");

    demo.kill("SIGTERM");
    const [code] = await Promise.race([
      exited,
      sleep(15_000).then(() => {
        throw new Error(`the demo did not stop within 15 s:\n${output}`);
      }),
    ]);
    expect(code).toBe(0);
    expect(await demoStates()).toEqual([]);
    expect(await demoRecords()).toEqual([]);
    expect(await demoDashboards()).toEqual([]);
    // Gone from Assist too: no entity that no longer exists left in the Expose list.
    expect(await demoExposed()).toEqual([]);
    expect(realEvents.events).toEqual([]);
    expect((await ha.getState("input_boolean.flag"))?.state).toBe("off");
    expect(output).not.toContain(ha.token);
  }, 120_000);
});
