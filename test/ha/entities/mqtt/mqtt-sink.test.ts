import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineStatus, Sink } from "../../../../src/engine/sink.js";
import { childEntityId, STATUS_ENTITY_ID } from "../../../../src/ha/entities/entity-names.js";
import { type HomeAssistantLink, homeAssistantLink, homeAssistantSink } from "../../../../src/ha/index.js";
import {
  type EventRecorder,
  type MqttRig,
  startMqttRig,
  testedHomeAssistantVersion,
} from "../../../lab/index.js";
import { LogCollector } from "../../../support/engine-rig.js";
import { sampleDelivery, sampleToday } from "../../../support/facts.js";

// The MQTT publisher in this process, against a real Home Assistant and a real Mosquitto: what
// mqtt-publisher.test.ts proves of a bridge's process, turn by turn here (a child's entities made,
// a fact fired on the bus and on her event entity in one script, a child marked unavailable, a
// child gone from the household removed, everything removed at a stop that asks it).

const version = testedHomeAssistantVersion();
const lea = { id: "7c1d0e2f-0000-4000-8000-00000000a1ea", firstName: "Léa" };
const noah = { id: "7c1d0e2f-0000-4000-8000-0000000040a4", firstName: "Noah" };
const status: EngineStatus = {
  state: "ok",
  requestsLastMinute: 3,
  budgetPerMinute: 28,
  demandPerMinute: 3.1,
  stretch: 1,
  todayStretch: 1,
  children: [lea, noah],
  rateLimitedCount: 0,
  lastError: null,
  lastTurnAt: Date.now(),
};
const abort = new AbortController();
const logs = new LogCollector();
let rig: MqttRig;
let sink: Sink;
let recorder: EventRecorder;
let link: HomeAssistantLink;

beforeAll(async () => {
  rig = await startMqttRig(version);
  recorder = await rig.ha.subscribeEvents("reward_facts_event");
  const logger = logs.logger([rig.ha.token, rig.user.password]);
  link = homeAssistantLink({ url: rig.ha.url, token: rig.ha.token, requireAdmin: true }, { logger });
  sink = await homeAssistantSink({
    link,
    url: rig.ha.url,
    token: rig.ha.token,
    logger,
    broker: { url: rig.broker.url, username: rig.user.username, password: rig.user.password },
    dashboard: false,
    removeOnStop: true,
  });
  await sink.open();
  await sink.whenReady(abort.signal);
}, 300_000);

afterAll(async () => {
  abort.abort();
  await recorder?.close();
  link?.close();
  await rig?.stop();
});

const state = async (entityId: string) => (await rig.ha.getState(entityId))?.state;

describe(`the MQTT publisher in this process, on Home Assistant ${version}`, () => {
  it("makes each child's entities and fills them from her day", async () => {
    await sink.setChildren([lea, noah]);
    await sink.publishToday(lea, sampleToday, Date.now());
    await sink.publishToday(noah, { ...sampleToday, minutesRemaining: 5 }, Date.now());
    await sink.publishStatus(status);
    await rig.ha.waitFor(async () => (await state(childEntityId("lea", "minutes_remaining"))) === "25", {
      description: "Léa's minutes from her day",
    });
    await rig.ha.waitFor(async () => (await state(childEntityId("noah", "minutes_remaining"))) === "5", {
      description: "Noah's minutes from his day",
    });
    await rig.ha.waitFor(async () => (await state(STATUS_ENTITY_ID)) === "ok", { description: "the status" });
  });

  it("labels the children's devices and files its helpers in a category of their own", async () => {
    const labelOn = async (childId: string) => {
      const devices = await rig.ha.wsCommand<Array<{ identifiers: string[][]; labels?: string[] }>>({
        type: "config/device_registry/list",
      });
      return (
        devices.find((d) => d.identifiers.some(([, id]) => id === `reward_facts_${childId}`))?.labels ?? []
      );
    };
    const children = await rig.ha.waitFor(
      async () => {
        // Each reading looks again, until every device has registered.
        await sink.publishToday(lea, sampleToday, Date.now());
        const label = (
          await rig.ha.wsCommand<Array<{ label_id: string; name: string }>>({
            type: "config/label_registry/list",
          })
        ).find((l) => l.name === "Children");
        return label &&
          (await labelOn(lea.id)).includes(label.label_id) &&
          (await labelOn(noah.id)).includes(label.label_id)
          ? label
          : undefined;
      },
      { intervalMs: 500, description: "the children's label on both devices" },
    );
    expect(children.name).toBe("Children");
    expect(logs.matching(/labelled the children's devices/).length).toBeGreaterThanOrEqual(1);
    const category = (
      await rig.ha.wsCommand<Array<{ category_id: string; name: string }>>({
        type: "config/category_registry/list",
        scope: "helpers",
      })
    ).find((c) => c.name === "Reward Facts bridge");
    const records = (
      await rig.ha.wsCommand<
        Array<{ platform: string; unique_id: string; categories?: Record<string, string> }>
      >({
        type: "config/entity_registry/list",
      })
    ).filter((e) => e.platform === "input_text" && e.unique_id.startsWith("reward_facts_delivery_"));
    expect(records.length).toBeGreaterThanOrEqual(4);
    for (const record of records) expect(record.categories?.helpers).toBe(category?.category_id);
  });

  it("fires a fact on the bus and on her event entity, in the one script that records it", async () => {
    const fact = sampleDelivery(lea.id, "5f0e1d2c-0000-4000-8000-0000000000f1");
    const outcome = await sink.publishEvent(lea, {
      ...fact,
      event: { ...fact.event, at: new Date().toISOString() },
    });
    expect(outcome.alreadyDelivered).toBeUndefined();
    await rig.ha.waitFor(() => recorder.events.some((event) => event.data.event_id === fact.event.id), {
      description: "the fact on the bus",
    });
    const journal = await rig.ha.waitFor(
      async () => {
        const entity = await rig.ha.getState("event.reward_facts_lea_journal");
        return entity?.attributes.event_type === "cheer_sent" ? entity : undefined;
      },
      { description: "the fact on Léa's journal entity" },
    );
    expect(journal.attributes).toMatchObject({ event_id: fact.event.id, redelivered: false });
    expect(await sink.readDeliveryRecord?.(lea)).toMatchObject({ kind: "names", factId: fact.event.id });
  });

  it("marks a child unavailable, keeping her last values for when she is readable again", async () => {
    await sink.markUnavailable(noah, "api_unreachable");
    await rig.ha.waitFor(
      async () => (await state(childEntityId("noah", "minutes_remaining"))) === "unavailable",
      {
        description: "Noah's minutes unavailable",
      },
    );
    expect(await state(childEntityId("lea", "minutes_remaining"))).toBe("25");
  });

  it("removes the device of a child gone from the household, and everything at a stop that asks it", async () => {
    await sink.setChildren([lea]);
    await rig.ha.waitFor(
      async () => (await rig.ha.getState(childEntityId("noah", "minutes_remaining"))) === null,
      {
        description: "Noah's entities gone",
      },
    );
    expect(await state(childEntityId("lea", "minutes_remaining"))).toBe("25");
    await sink.close();
    await rig.ha.waitFor(
      async () => (await rig.ha.getState(childEntityId("lea", "minutes_remaining"))) === null,
      {
        description: "Léa's entities gone",
      },
    );
    expect(logs.matching(/removed what this run had published/)).toHaveLength(1);
    expect(logs.raw.join("\n")).not.toContain(rig.user.password);
    expect(logs.raw.join("\n")).not.toContain(rig.ha.token);
  });
});
