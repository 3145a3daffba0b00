import { existsSync } from "node:fs";
import { fetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  eventLogConfig,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  loggedEventIds,
  loggedEvents,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "./index.js";

// Not Paris, the harness's default: proves the option reaches HA.
const timeZone = "America/New_York";

const version = testedHomeAssistantVersion();

// Old syntax (trigger/platform/service): it must load on 2024.3 too.
const automations = `
- id: flag_on_harness_event
  mode: queued
  trigger: [{platform: event, event_type: harness_flag_event}]
  action: [{service: input_boolean.turn_on, target: {entity_id: input_boolean.flag}}]
${eventLogConfig.automations}`;

describe(`the real Home Assistant harness on Home Assistant ${version}`, () => {
  let ha: HomeAssistantInstance;

  // The first run on a machine installs Home Assistant.
  beforeAll(async () => {
    ha = await startHomeAssistant({
      automations,
      extraConfig: eventLogConfig.extraConfig,
      timeZone,
      version,
    });
  }, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await ha?.stop();
  }, 60_000);

  it("hands out a long-lived admin token that the API accepts", async () => {
    const config = await ha.api<{ state: string; time_zone: string; version: string }>("GET", "/api/config");
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ state: "RUNNING", time_zone: timeZone, version });
    expect(ha.version).toBe(version);

    const user = await ha.wsCommand<{ is_admin: boolean }>({ type: "auth/current_user" });
    expect(user.is_admin).toBe(true);

    const anonymous = await fetch(`${ha.url}/api/config`);
    expect(anonymous.status).toBe(401);
  });

  it("has the YAML http settings confirmed, so it never restarts on port 8123 five minutes in", async () => {
    // 2024.3 has no such trial (unknown command); from 2026 an unconfirmed trial reverts.
    const config = await ha
      .wsCommand<{ pending?: unknown }>({ type: "http/config" })
      .catch((error: Error) => ({ error: error.message }));
    if (version.startsWith("2024."))
      expect(config).toMatchObject({ error: expect.stringContaining("unknown_command") });
    else expect(config).toMatchObject({ pending: null });
  });

  it("keeps a state POSTed to /api/states", async () => {
    const posted = await ha.api("POST", "/api/states/sensor.harness_check", {
      state: "42",
      attributes: { unit_of_measurement: "pts", friendly_name: "Harness check" },
    });
    expect(posted.status).toBe(201);

    const state = await ha.getState("sensor.harness_check");
    expect(state).toMatchObject({
      entity_id: "sensor.harness_check",
      state: "42",
      attributes: { unit_of_measurement: "pts", friendly_name: "Harness check" },
    });
    expect(await ha.getState("sensor.never_published")).toBeNull();
    expect((await ha.getStates()).map((s) => s.entity_id)).toContain("sensor.harness_check");
  });

  it("records events fired over the websocket", async () => {
    const recorder = await ha.subscribeEvents("harness_ping");
    try {
      await ha.fireEvent("harness_ping", { n: 1 });
      await ha.fireEvent("harness_other", { n: 2 });
      const event = await ha.waitFor(() => recorder.events[0], { description: "harness_ping" });
      expect(event.data).toEqual({ n: 1 });
      expect(Date.parse(event.time_fired)).not.toBeNaN();
      expect(recorder.events.map((e) => e.event_type)).toEqual(["harness_ping"]);
    } finally {
      await recorder.close();
    }
  });

  it("runs the automations it was given", async () => {
    expect((await ha.getState("input_boolean.flag"))?.state).toBe("off");
    await ha.fireEvent("harness_flag_event");
    await ha.waitFor(async () => (await ha.getState("input_boolean.flag"))?.state === "on", {
      description: "input_boolean.flag on",
    });
    // Services work too: turn it back off for whoever comes next.
    await ha.callService("input_boolean", "turn_off", { entity_id: "input_boolean.flag" });
    expect((await ha.getState("input_boolean.flag"))?.state).toBe("off");
  });

  // What the bridge's tests read to tell what reached automations: data the bridge may send, with
  // characters a shell or a template would mangle, a repeat, and more than one poll's worth.
  const logged = [
    { event_id: "e-1", type: "cheer_sent", child_name: 'Léa "la grande" d\'Inès', cheer: "bravo" },
    { event_id: "e-2", note: "$HOME `id` \\ %s {{ 1 }} <b>&amp;</b>", nested: { list: [1, null, true] } },
    { event_id: "e-1", type: "cheer_sent", child_name: 'Léa "la grande" d\'Inès', cheer: "bravo" },
    ...Array.from({ length: 30 }, (_, i) => ({ event_id: `burst-${i}`, n: i, age_seconds: i / 2 })),
  ];

  it("logs each reward_facts_event an automation saw, in order, repeats and data included", async () => {
    for (const data of logged) await ha.fireEvent("reward_facts_event", data);
    await ha.waitFor(async () => (await loggedEvents(ha)).length >= logged.length, {
      description: `${logged.length} logged events`,
    });
    expect(await loggedEvents(ha)).toEqual(logged);
    expect(await loggedEventIds(ha)).toEqual(logged.map((data) => data.event_id));
    await ha.callService("input_boolean", "turn_off", { entity_id: "input_boolean.flag" });
  });

  it("restarts for real: same token, REST states forgotten, recorders listening again", async () => {
    const recorder = await ha.subscribeEvents("harness_after_restart");
    try {
      await ha.restart();
      expect(ha.isRunning()).toBe(true);

      const config = await ha.api<{ state: string }>("GET", "/api/config");
      expect(config.status).toBe(200);
      expect(config.body.state).toBe("RUNNING");
      // REST-made states are not entities: the bridge must republish them after every restart.
      expect(await ha.getState("sensor.harness_check")).toBeNull();

      await ha.fireEvent("harness_after_restart", { after: true });
      await ha.waitFor(() => recorder.events.length > 0, { description: "an event after the restart" });
      expect(recorder.events[0]?.data).toEqual({ after: true });

      // The event log goes on where it was.
      await ha.fireEvent("reward_facts_event", { event_id: "after-restart" });
      await ha.waitFor(async () => (await loggedEvents(ha)).length > logged.length, {
        description: "the event log after a restart",
      });
      expect(await loggedEvents(ha)).toEqual([...logged, { event_id: "after-restart" }]);
    } finally {
      await recorder.close();
    }
  }, 180_000);

  it("comes back after a crash (kill, then restart)", async () => {
    await ha.kill();
    expect(ha.isRunning()).toBe(false);
    await expect(fetch(`${ha.url}/api/`)).rejects.toThrow();

    await ha.restart();
    expect((await ha.api("GET", "/api/config")).status).toBe(200);
    await ha.callService("input_boolean", "turn_off", { entity_id: "input_boolean.flag" });
    await ha.fireEvent("harness_flag_event");
    await ha.waitFor(async () => (await ha.getState("input_boolean.flag"))?.state === "on", {
      description: "the automation after a crash",
    });
  }, 180_000);

  it("stops for good and cleans up", async () => {
    await ha.stop();
    expect(ha.isRunning()).toBe(false);
    await expect(fetch(`${ha.url}/api/`)).rejects.toThrow();
    if (!process.env.KEEP_HA_DIR) expect(existsSync(ha.configDir)).toBe(false);
    await ha.stop();
    await expect(ha.restart()).rejects.toThrow(/stopped for good/);
  }, 60_000);
});
