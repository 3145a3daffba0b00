import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Today } from "../../../src/api/schemas.js";
import { DEFAULT_GAUGE_MAX } from "../../../src/ha/dashboard/build-dashboard.js";
import { DashboardKeeper } from "../../../src/ha/dashboard/dashboard-keeper.js";
import type { LovelaceCard, LovelaceConfig } from "../../../src/ha/dashboard/lovelace.js";
import { contractNames } from "../../../src/ha/entities/entity-names.js";
import type { HomeAssistantSink } from "../../../src/ha/ha-sink.js";
import { HomeAssistantLink } from "../../../src/ha/link/connection.js";
import { en } from "../../../src/ha/texts/en.js";
import { silentLogger } from "../../../src/log/logger.js";
import {
  type EventRecorder,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../../lab/index.js";
import { sampleCalmDay, sampleToday } from "../../support/facts.js";
import { ownLinkSink } from "../../support/own-link-sink.js";

// The bridge keeps each child's minutes gauge topped at her unlocked minutes: the sink, told each
// child's day, has the dashboard written again in a real Home Assistant when a gauge's top moves,
// and only then. Each save of a dashboard fires Home Assistant's `lovelace_updated`, counted here.

const version = testedHomeAssistantVersion();
const lea = { id: "7f3c2a10-0000-4000-8000-0000000000a1", firstName: "Léa" };
const noah = { id: "7f3c2a10-0000-4000-8000-0000000000a2", firstName: "Noah" };
const abort = new AbortController();

let ha: HomeAssistantInstance;
let sink: HomeAssistantSink;
let saves: EventRecorder;
/** Another dashboard the test saves to mark a point in the stream of saves. */
const BARRIER = "keeper-barrier";
let barriers = 0;

const savesOfRewards = () => saves.events.filter((event) => event.data.url_path === "reward-facts").length;

/**
 * The Rewards dashboard's saves so far, every one made before this call included: events reach
 * the test in the order Home Assistant fires them, so once a save of the barrier's is seen, every
 * save the bridge made before it has been too.
 */
async function rewardsSaves(): Promise<number> {
  barriers++;
  await ha.wsCommand({ type: "lovelace/config/save", url_path: BARRIER, config: { views: [], n: barriers } });
  await ha.waitFor(
    () => saves.events.filter((event) => event.data.url_path === BARRIER).length === barriers,
    {
      description: "the barrier's save",
    },
  );
  return savesOfRewards();
}

/** The top of each child's gauges, in every view of the saved dashboard. */
async function gaugeTops(): Promise<Record<string, number[]>> {
  const config = await ha.wsCommand<LovelaceConfig>({ type: "lovelace/config", url_path: "reward-facts" });
  const tops: Record<string, number[]> = {};
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === "object") {
      const card = value as LovelaceCard;
      if (card.type === "gauge") {
        const slug = String(card.entity).replace(/^sensor\.reward_facts_(.+)_minutes_remaining$/, "$1");
        tops[slug] = [...(tops[slug] ?? []), card.max as number];
      }
      for (const item of Object.values(card)) walk(item);
    }
  };
  walk(config.views);
  return tops;
}

const dayWith = (unlocked: number, remaining: number): Today => ({
  ...sampleToday,
  minutesUnlocked: unlocked,
  minutesRemaining: remaining,
  minutesConsumed: unlocked - remaining,
});

beforeAll(async () => {
  ha = await startHomeAssistant({ version });
  await ha.wsCommand({
    type: "lovelace/dashboards/create",
    url_path: BARRIER,
    title: "Barrier",
    mode: "storage",
  });
  saves = await ha.subscribeEvents("lovelace_updated");
  sink = ownLinkSink({
    url: ha.url,
    token: ha.token,
    logger: silentLogger(),
    requireAdmin: true,
    dashboard: true,
  });
  await sink.open();
  await sink.whenReady(abort.signal);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  abort.abort();
  await saves?.close();
  await sink?.close();
  await ha?.stop();
});

describe(`the gauges' tops in a real Home Assistant ${version}`, () => {
  it("are 120 until a child's day is read, in the layout of the release the bridge reads", async () => {
    await sink.setChildren([lea, noah]);
    expect(await rewardsSaves()).toBe(1);
    const saved = await ha.wsCommand<LovelaceConfig>({ type: "lovelace/config", url_path: "reward-facts" });
    expect(saved.views.map((view) => ("sections" in view ? view.type : "masonry"))).toEqual([
      "sections",
      "sections",
      "sections",
    ]);
    expect(await gaugeTops()).toEqual({
      // The Today view's gauge and her own view's.
      lea: [DEFAULT_GAUGE_MAX, DEFAULT_GAUGE_MAX],
      noah: [DEFAULT_GAUGE_MAX, DEFAULT_GAUGE_MAX],
    });
  });

  it("follow each child's unlocked minutes: the dashboard is written again when one moves", async () => {
    await sink.publishToday(lea, dayWith(45, 25), Date.now());
    expect(await rewardsSaves()).toBe(2);
    expect(await gaugeTops()).toEqual({ lea: [45, 45], noah: [DEFAULT_GAUGE_MAX, DEFAULT_GAUGE_MAX] });
    await sink.publishToday(noah, dayWith(90, 90), Date.now());
    expect(await rewardsSaves()).toBe(3);
    expect(await gaugeTops()).toEqual({ lea: [45, 45], noah: [90, 90] });
  });

  it("and only then: minutes used, the other home's day, nothing unlocked yet leave it as it is", async () => {
    await sink.publishToday(lea, dayWith(45, 25), Date.now());
    await sink.publishToday(lea, dayWith(45, 10), Date.now());
    await sink.publishToday(noah, sampleCalmDay, Date.now());
    await sink.publishToday(noah, dayWith(0, 0), Date.now());
    expect(await rewardsSaves()).toBe(3);
    // A new tier unlocked for Léa: written once more, her gauge taller.
    await sink.publishToday(lea, dayWith(60, 25), Date.now());
    await sink.publishToday(lea, dayWith(60, 20), Date.now());
    expect(await rewardsSaves()).toBe(4);
    expect(await gaugeTops()).toEqual({ lea: [60, 60], noah: [90, 90] });
  });
});

describe("what the keeper is told of each day", () => {
  it("says the dashboard is out of date only when a child's gauge's top moves", () => {
    const link = new HomeAssistantLink({
      url: ha.url,
      token: ha.token,
      logger: silentLogger(),
      requireAdmin: true,
    });
    const keeper = new DashboardKeeper({
      link,
      ready: () => link.ready,
      logger: silentLogger(),
      names: contractNames,
      texts: () => en,
      mode: () => "rest",
      haVersion: () => link.haVersion,
    });
    const told = (slug: string, today: Today) => keeper.noteToday(slug, today);
    expect(told("lea", dayWith(45, 25))).toBe(true);
    expect(told("lea", dayWith(45, 20))).toBe(false);
    expect(told("lea", sampleCalmDay)).toBe(false);
    expect(told("lea", dayWith(0, 0))).toBe(false);
    expect(told("noah", dayWith(45, 45))).toBe(true);
    expect(told("lea", dayWith(60, 20))).toBe(true);
    expect(told("lea", dayWith(45, 20))).toBe(true);
  });
});
