import { rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { derivedFactId } from "../../src/engine/derived-facts.js";
import { silentLogger } from "../../src/log/logger.js";
import { cursorStoreOn, type JsonValue, openStore } from "../../src/store/index.js";
import { type HaEvent, startMqttRig, testedHomeAssistantVersion } from "../lab/index.js";
import type { BridgeProcess } from "../support/bridge-process.js";
import { suiteOnRig } from "../support/lab-bridges.js";
import { afterReadings } from "../support/served-reads.js";

const version = testedHomeAssistantVersion();

// A bridge whose data directory lost what it held (deleted, or a cursor that lies in the future)
// judges a child's journal against Home Assistant's delivery record of the child, in both
// publishing modes: nothing Home Assistant already had is fired again, and the facts after it
// come once, as news. (test/engine/record-recovery.test.ts covers the judgement's other cases.)
// A value of the data directory that is damaged (issue 53: an edit by hand, a file of another
// version) is set aside with one warning, and every fact still arrives once.

const lab = suiteOnRig(() => startMqttRig(version));

/**
 * Runs the bridge (`start` starts it) until every fact of `ids` has fired, then two more journal
 * polls of the child (a repeat would come in them), then stops it.
 */
async function runUntilFired(
  childId: string,
  start: () => Promise<BridgeProcess> | BridgeProcess,
  events: HaEvent[],
  ids: readonly string[],
): Promise<BridgeProcess> {
  const { ha, sim } = lab.rig;
  const run = await start();
  await ha.waitFor(() => ids.every((id) => events.some((e) => e.data.event_id === id)), {
    timeoutMs: 90_000,
    description: () => `facts ${ids.join(", ")} fired (output: ${run.text().slice(-2_000)})`,
  });
  await afterReadings(sim, childId, "events", 2);
  expect(await run.stop()).toBe(0);
  return run;
}

const firedOf = (events: HaEvent[], id: string) => events.filter((e) => e.data.event_id === id);
const dataDirOf = (run: BridgeProcess) => run.env.REWARD_FACTS_DATA_DIR as string;

describe.each(["rest", "mqtt"] as const)(
  `a lost data directory, %s mode, on Home Assistant ${version}`,
  (publish) => {
    it("deleted: nothing Home Assistant had fires again, the next fact fires once as news, and it is said", async () => {
      const { ha, sim } = lab.rig;
      const child = sim.addChild(publish === "rest" ? "Noé" : "Inès", { planned: false });
      const events = await ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2, 3].map(() => sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }));
        const first = await runUntilFired(
          child.id,
          () => lab.start({ children: [child.id], publish }),
          events.events,
          before.map((e) => e.id),
        );
        await rm(dataDirOf(first), { recursive: true, force: true });

        const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
        const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);

        for (const fact of before) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id).map((e) => e.data.redelivered)).toEqual([false]);
        expect(run.text()).toContain("holds no delivery state");
        expect(run.text()).not.toContain(sim.tokens.household);
      } finally {
        await events.close();
      }
    }, 300_000);

    it("a cursor in the future: said, dropped, and the day's facts not fired again", async () => {
      const { ha, sim } = lab.rig;
      const child = sim.addChild(publish === "rest" ? "Jules" : "Maël", { planned: false });
      const events = await ha.subscribeEvents("reward_facts_event");
      try {
        const before = [1, 2].map(() => sim.addEvent(child.id, { type: "cheer_sent", cheer: "seen" }));
        const first = await runUntilFired(
          child.id,
          () => lab.start({ children: [child.id], publish }),
          events.events,
          before.map((e) => e.id),
        );
        const store = await openStore({ dataDir: dataDirOf(first), logger: silentLogger() });
        await cursorStoreOn(store, silentLogger()).set(
          child.id,
          "2100-01-01T00:00:00.000Z,00000000-0000-4000-8000-000000000000",
        );
        await store.close();

        const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" });
        const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);

        for (const fact of [...before, after]) expect(firedOf(events.events, fact.id)).toHaveLength(1);
        expect(firedOf(events.events, after.id)[0]?.data.redelivered).toBe(false);
        expect(run.text()).toContain("cursor lies in the future");
      } finally {
        await events.close();
      }
    }, 300_000);
  },
);

/** Writes `values` into the store of a stopped bridge's data directory, as damage would leave them. */
async function damage(dataDir: string, values: Record<string, JsonValue>): Promise<void> {
  const store = await openStore({ dataDir, logger: silentLogger() });
  for (const [key, value] of Object.entries(values)) await store.set(key, value);
  await store.close();
}

/** The bridge's warnings that name the data directory's damage. */
const damageWarnings = (run: BridgeProcess) =>
  run.output.filter((line) => /WARN/.test(line) && /damaged and (is|are) set aside/.test(line));

describe(`a damaged data directory, on Home Assistant ${version}`, () => {
  it("a cursor of the wrong type: one warning, nothing fired again, the next fact once", async () => {
    const { ha, sim } = lab.rig;
    const child = sim.addChild("Aure", { planned: false });
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const before = [1, 2].map(() => sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }));
      const first = await runUntilFired(
        child.id,
        () => lab.start({ children: [child.id], publish: "rest" }),
        events.events,
        before.map((e) => e.id),
      );
      await damage(dataDirOf(first), { [`cursor:${child.id}`]: { oops: 12345 } });
      const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
      const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);
      for (const fact of [...before, after]) expect(firedOf(events.events, fact.id)).toHaveLength(1);
      expect(damageWarnings(run)).toHaveLength(1);
      expect(run.text()).not.toContain("TypeError");
    } finally {
      await events.close();
    }
  }, 300_000);

  it("a malformed pending derived fact: one warning, the fact beside it sent once", async () => {
    const { ha, sim } = lab.rig;
    const child = sim.addChild("Ilan", { planned: false });
    const day = sim.today(child.id).date;
    const fact = (behaviorId: string) => ({
      derived: true,
      type: "behavior_declared",
      id: derivedFactId(child.id, day, "behavior_declared", behaviorId),
      childId: child.id,
      day,
      at: new Date().toISOString(),
      behaviorId,
      label: "Arroser les plantes",
      mandatory: false,
    });
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const first = await runUntilFired(
        child.id,
        () => lab.start({ children: [child.id], publish: "rest" }),
        events.events,
        [sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }).id],
      );
      // Worked out before a crash, not yet sent: one intact, one whose label is no text.
      await damage(dataDirOf(first), {
        [`derived:${child.id}`]: {
          state: { last: null, sessions: 0 },
          pending: [{ ...fact("own-broken"), label: 42 }, fact("own-intact")],
        },
      });
      const intact = fact("own-intact").id;
      const run = await runUntilFired(child.id, () => lab.again(first), events.events, [intact]);
      expect(firedOf(events.events, intact)).toHaveLength(1);
      expect(firedOf(events.events, fact("own-broken").id)).toEqual([]);
      expect(damageWarnings(run)).toHaveLength(1);
      expect(run.text()).not.toContain("refused");
    } finally {
      await events.close();
    }
  }, 300_000);

  it("a damaged identity: one warning, a new one, and the bridge publishes", async () => {
    const { ha, sim } = lab.rig;
    const child = sim.addChild("Swann", { planned: false });
    const events = await ha.subscribeEvents("reward_facts_event");
    try {
      const first = await runUntilFired(
        child.id,
        () => lab.start({ children: [child.id], publish: "rest" }),
        events.events,
        [sim.addEvent(child.id, { type: "cheer_sent", cheer: "bravo" }).id],
      );
      await damage(dataDirOf(first), { instance_id: "x".repeat(300) });
      const after = sim.addEvent(child.id, { type: "cheer_sent", cheer: "super" });
      const run = await runUntilFired(child.id, () => lab.again(first), events.events, [after.id]);
      expect(firedOf(events.events, after.id)).toHaveLength(1);
      expect(damageWarnings(run)).toHaveLength(1);
      expect(run.text()).toMatch(/identity.*new one/);
    } finally {
      await events.close();
    }
  }, 300_000);
});
