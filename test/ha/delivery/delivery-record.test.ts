import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiEvent } from "../../../src/api/schemas.js";
import type { DerivedFact } from "../../../src/engine/derived-facts.js";
import { type FactDelivery, MaybeDeliveredError, NotDeliveredError } from "../../../src/engine/sink.js";
import { recordIdOf } from "../../../src/ha/delivery/delivery-records.js";
import { contractNames } from "../../../src/ha/entities/entity-names.js";
import type { HomeAssistantSink } from "../../../src/ha/ha-sink.js";
import { silentLogger } from "../../../src/log/logger.js";
import {
  CuttableLink,
  type EventRecorder,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../../lab/index.js";
import { ownLinkSink } from "../../support/own-link-sink.js";

const version = testedHomeAssistantVersion();

// The delivery record in a real Home Assistant: the bus event and the child's record change in
// one script run, so that a fact in doubt after a crash is fired again only when Home Assistant
// never fired it, and marked `redelivered` when Home Assistant restarted in between.

const child = { id: "5b1e7c3a-0000-4000-8000-0000000d0e11", firstName: "Inès" };
const abort = new AbortController();
let ha: HomeAssistantInstance;
let sink: HomeAssistantSink;
let recorder: EventRecorder;
let serial = 0;

function fact(overrides: Partial<ApiEvent> = {}): ApiEvent {
  serial++;
  return {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, "0")}`,
    at: new Date(Date.now() - 5_000).toISOString(),
    day: "2026-11-23",
    childId: child.id,
    type: "cheer_sent",
    cheer: "bravo",
    ...overrides,
  } as ApiEvent;
}

/**
 * A fact worked out from the child's day: a behavior she declared. Its id is as long as the
 * engine's (the behavior's id a UUID): over 100 characters.
 */
function derivedFact(): DerivedFact {
  serial++;
  const behaviorId = `00000000-0000-4000-9000-${String(serial).padStart(12, "0")}`;
  return {
    derived: true,
    id: `derived:${child.id}:2026-11-23:behavior_declared:${behaviorId}`,
    childId: child.id,
    day: "2026-11-23",
    at: new Date(Date.now() - 5_000).toISOString(),
    type: "behavior_declared",
    behaviorId,
    label: "Homework",
    mandatory: true,
  };
}

function delivery(event: ApiEvent | DerivedFact, inDoubt = false, lastReceipt?: string): FactDelivery {
  return { event, ageSeconds: 5, replayed: false, inDoubt, lastReceipt, uncertain: false };
}

const recordEntity = `input_text.${recordIdOf(child.id, contractNames)}`;
const derivedRecordEntity = `input_text.${recordIdOf(child.id, contractNames, "derived")}`;

/**
 * The bus events of one fact, once the first has reached the recorder (its own connection: the
 * script's answer on the sink's says nothing of when), and a moment more for any repeat.
 */
async function firedFor(eventId: string): Promise<Array<Record<string, unknown>>> {
  const of = () => recorder.events.map((e) => e.data).filter((data) => data.event_id === eventId);
  await ha.waitFor(() => of().length > 0).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return of();
}

beforeAll(async () => {
  ha = await startHomeAssistant({ version });
  sink = ownLinkSink({ url: ha.url, token: ha.token, logger: silentLogger(), requireAdmin: true });
  await sink.open();
  await sink.whenReady(abort.signal);
  await sink.setChildren([child]);
  recorder = await ha.subscribeEvents("reward_facts_event");
}, 300_000);

afterAll(async () => {
  abort.abort();
  await recorder?.close();
  await sink?.close();
  await ha?.stop();
});

describe(`the delivery record in Home Assistant ${version}`, () => {
  it("is a hidden input_text per child, named after the child, holding the last fired fact", async () => {
    const first = fact();
    const outcome = await sink.publishEvent(child, delivery(first));
    expect(outcome.alreadyDelivered).toBeUndefined();
    expect(outcome.receipt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const record = await ha.getState(recordEntity);
    expect(record?.state).toBe(first.id);
    expect(record?.attributes.friendly_name).toBe("Reward Facts delivery record (Inès)");
    expect(record?.last_updated).toBe(outcome.receipt);
    const entry = await ha.wsCommand<{ hidden_by: string | null }>({
      type: "config/entity_registry/get",
      entity_id: recordEntity,
    });
    expect(entry.hidden_by).toBe("user");
    const fired = await firedFor(first.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({
      event_id: first.id,
      cheer: "bravo",
      redelivered: false,
      replayed: false,
    });
  });

  it("does not fire a fact in doubt again when the record shows it arrived", async () => {
    const sent = fact();
    const { receipt } = await sink.publishEvent(child, delivery(sent));
    // The bridge died before it could record the answer: the same fact comes again, in doubt.
    const again = await sink.publishEvent(child, delivery(sent, true, receipt));
    expect(again).toEqual({ alreadyDelivered: true });
    expect(await firedFor(sent.id)).toHaveLength(1);
  });

  it("fires a fact in doubt that never arrived, as new, when Home Assistant kept running", async () => {
    const { receipt } = await sink.publishEvent(child, delivery(fact()));
    // Claimed, then the bridge died before the message left.
    const lost = fact();
    const outcome = await sink.publishEvent(child, delivery(lost, true, receipt));
    expect(outcome.alreadyDelivered).toBeUndefined();
    const fired = await firedFor(lost.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.redelivered).toBe(false);
  });

  it("keeps derived facts in a record of their own, hidden too: the journal's names only journal facts", async () => {
    const journalFact = fact();
    await sink.publishEvent(child, delivery(journalFact));
    const derived = derivedFact();
    expect(derived.id.length).toBeGreaterThan(100);
    const outcome = await sink.publishEvent(child, delivery(derived));
    expect(outcome.receipt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const record = await ha.getState(derivedRecordEntity);
    expect(record?.state).toBe(derived.id);
    expect(record?.attributes.friendly_name).toBe("Reward Facts derived facts record (Inès)");
    // The engine's receipt for the child's derived facts is their record's stamp.
    expect(record?.last_updated).toBe(outcome.receipt);
    const entry = await ha.wsCommand<{ hidden_by: string | null }>({
      type: "config/entity_registry/get",
      entity_id: derivedRecordEntity,
    });
    expect(entry.hidden_by).toBe("user");
    // What a bridge that lost its data directory reads, and looks for in the journal.
    expect((await ha.getState(recordEntity))?.state).toBe(journalFact.id);
    expect(await sink.readDeliveryRecord(child)).toMatchObject({ kind: "names", factId: journalFact.id });
    const fired = await firedFor(derived.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ type: "behavior_declared", derived: true, redelivered: false });
  });

  it("does not fire a fact in doubt again when its stream's record shows it arrived, whatever the other stream sent since", async () => {
    const derived = derivedFact();
    const { receipt: derivedReceipt } = await sink.publishEvent(child, delivery(derived));
    // A journal fact went between (the bridge's other job), then the bridge died before noting
    // the derived fact's answer: it comes again, in doubt.
    const journalFact = fact();
    const { receipt: journalReceipt } = await sink.publishEvent(child, delivery(journalFact));
    expect(await sink.publishEvent(child, delivery(derived, true, derivedReceipt))).toEqual({
      alreadyDelivered: true,
    });
    // And the other way round: a journal fact in doubt after a derived fact went.
    await sink.publishEvent(child, delivery(derivedFact(), false, derivedReceipt));
    expect(await sink.publishEvent(child, delivery(journalFact, true, journalReceipt))).toEqual({
      alreadyDelivered: true,
    });
    expect(await firedFor(derived.id)).toHaveLength(1);
    expect(await firedFor(journalFact.id)).toHaveLength(1);
  });

  it("widens a record an earlier version left holding 100 characters, keeping its name", async () => {
    const other = { id: "5b1e7c3a-0000-4000-8000-0000000d0e12", firstName: "Noé" };
    const helper = recordIdOf(other.id, contractNames, "derived");
    const settings = async () =>
      (
        await ha.wsCommand<Array<{ id: string; name: string; max: number }>>({ type: "input_text/list" })
      ).find((item) => item.id === helper);
    const sinkFor = async () => {
      const made = ownLinkSink({ url: ha.url, token: ha.token, logger: silentLogger(), requireAdmin: true });
      await made.open();
      await made.whenReady(abort.signal);
      await made.setChildren([other]);
      return made;
    };
    await (await sinkFor()).close();
    // What the rename of earlier versions did: an update that says nothing of max resets it.
    await ha.wsCommand({ type: "input_text/update", input_text_id: helper, name: "Kept name" });
    expect((await settings())?.max).toBe(100);
    const again = await sinkFor();
    try {
      expect(await settings()).toMatchObject({ name: "Kept name", max: 255 });
      const derived = { ...derivedFact(), childId: other.id };
      await again.publishEvent(other, delivery(derived));
      expect((await ha.getState(`input_text.${helper}`))?.state).toBe(derived.id);
    } finally {
      await again.close();
    }
  });

  it("passes the family's words through untouched, template-like or number-like", async () => {
    const labels = ["{{ 6 * 7 }}", "123", "True", "{% if x %}", "1, 2", "Range ta chambre 🧸"];
    for (const label of labels) {
      const event = fact({ type: "behavior_validated", behaviorId: "b1", label } as Partial<ApiEvent>);
      await sink.publishEvent(child, delivery(event));
      const [data] = await firedFor(event.id);
      expect(data?.label, label).toBe(label);
    }
  });

  it("sends nothing again after a drop that took the answer of the fact the record names", async () => {
    // A link that fails under the sink: Home Assistant runs the next fact's script and records
    // it, its answer is lost, then the link ends (as when Core stops just after the script ran).
    const link = await CuttableLink.open(ha.url);
    const linked = ownLinkSink({
      url: link.url,
      token: ha.token,
      logger: silentLogger(),
      requireAdmin: true,
    });
    try {
      await linked.open();
      await linked.whenReady(abort.signal);
      await linked.setChildren([child]);
      const answered = [fact(), fact()];
      let receipt: string | undefined;
      for (const event of answered)
        ({ receipt } = await linked.publishEvent(child, delivery(event, false, receipt)));
      link.loseReplies();
      const unanswered = fact();
      const sending = linked
        .publishEvent(child, delivery(unanswered, false, receipt))
        .catch((error) => error);
      await ha.waitFor(async () => (await ha.getState(recordEntity))?.state === unanswered.id, {
        description: "the record naming the fact whose answer was lost",
      });
      link.cut();
      expect(await sending).toBeInstanceOf(MaybeDeliveredError);
      await linked.whenReady(abort.signal);
      // The engine sends the fact in doubt again: it had arrived.
      expect(await linked.publishEvent(child, delivery(unanswered, true, receipt))).toEqual({
        alreadyDelivered: true,
      });
      // The record was never behind: what came before is not sent again either.
      for (const event of [...answered, unanswered])
        expect(await firedFor(event.id), event.id).toHaveLength(1);
    } finally {
      await linked.close();
      await link.close();
    }
  }, 60_000);

  it("marks a fact in doubt redelivered when Home Assistant restarted since (its record may be stale)", async () => {
    const { receipt } = await sink.publishEvent(child, delivery(fact()));
    await ha.restart();
    await sink.whenReady(abort.signal);
    // The record came back from Home Assistant's saved state: its stamp is not the one the bridge
    // kept, so it cannot tell whether a fact sent just before the restart had arrived.
    const doubtful = fact();
    const outcome = await sink.publishEvent(child, delivery(doubtful, true, receipt));
    expect(outcome.alreadyDelivered).toBeUndefined();
    const fired = await firedFor(doubtful.id);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.redelivered).toBe(true);
    // The next fact, not in doubt, is news again.
    const next = fact();
    await sink.publishEvent(child, delivery(next, false, outcome.receipt));
    expect((await firedFor(next.id))[0]?.redelivered).toBe(false);
  }, 120_000);

  it("fires nothing while the household lease names another run, and a fact once the lease is this run's again", async () => {
    // The household lease's helper, as the lease makes it, here holding another run's token.
    const leaseEntity = "input_text.reward_facts_delivery_lease_test";
    await ha.wsCommand({ type: "input_text/create", name: "reward_facts_delivery_lease_test", max: 255 });
    const holding = (run: string) =>
      ha.callService("input_text", "set_value", {
        entity_id: leaseEntity,
        value: `{"id":"bridge","run":"${run}","pid":1}`,
      });
    await holding("other");
    const reclaims: string[] = [];
    let reclaimed = false;
    const leased = ownLinkSink({
      url: ha.url,
      token: ha.token,
      logger: silentLogger(),
      requireAdmin: true,
      lease: {
        guard: { entityId: leaseEntity, run: "mine" },
        reclaim: async () => {
          reclaims.push("asked");
          if (reclaimed) await holding("mine");
          return reclaimed;
        },
      },
    });
    try {
      await leased.open();
      await leased.whenReady(abort.signal);
      await leased.setChildren([child]);
      const refused = fact();
      // Taken by another run: refused before anything, said as not delivered (it stays owed).
      expect(await leased.publishEvent(child, delivery(refused)).catch((error) => error)).toBeInstanceOf(
        NotDeliveredError,
      );
      expect(reclaims).toEqual(["asked"]);
      expect(await firedFor(refused.id)).toHaveLength(0);
      expect((await ha.getState(recordEntity))?.state).not.toBe(refused.id);
      // Home Assistant lost the helper's value (killed before it saved it): the lease is written
      // again by this run, and the same fact goes at once, once.
      reclaimed = true;
      const outcome = await leased.publishEvent(child, delivery(refused));
      expect(outcome.alreadyDelivered).toBeUndefined();
      expect(reclaims).toEqual(["asked", "asked"]);
      expect(await firedFor(refused.id)).toHaveLength(1);
      // Held: the next fact goes without asking.
      const next = fact();
      await leased.publishEvent(child, delivery(next, false, outcome.receipt));
      expect(await firedFor(next.id)).toHaveLength(1);
      expect(reclaims).toHaveLength(2);
    } finally {
      await leased.close();
    }
  });
});
