import { factAgeSeconds } from "../../engine/fact-age.js";
import {
  type ChildRef,
  type DeliveryOutcome,
  type DeliveryRecordReading,
  type FactDelivery,
  MaybeDeliveredError,
  NotDeliveredError,
} from "../../engine/sink.js";
import type { RecentDeliveryHistory } from "../../engine/storage.js";
import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import { type EntityPublisher, FactsMustWaitError } from "../entities/entity-publisher.js";
import type { HomeAssistantLink } from "../link/connection.js";
import { HomeAssistantConnectionError, HomeAssistantNotConnectedError } from "../link/errors.js";
import type { Texts } from "../texts/texts.js";
import { DeliveryRecords } from "./delivery-records.js";
import { type DeliveryScriptResult, deliveryScript, readDeliveryResult } from "./delivery-script.js";
import { type DeliveryStream, streamOf } from "./delivery-stream.js";
import { eventData } from "./event-data.js";
import { REDELIVERY_WINDOW_MS, RecentDeliveries } from "./recent-deliveries.js";

export interface EventDelivererOptions {
  connection: HomeAssistantLink;
  /** Adds its own steps before the bus event (the MQTT event entity and device trigger). */
  entities: EntityPublisher;
  names: EntityNames;
  logger: Logger;
  /** Names any child as the entities do. */
  identityOf: (child: ChildRef) => ChildIdentity;
  /** Where the facts sent lately are kept across restarts of the bridge; in memory without. */
  recentDeliveries?: RecentDeliveryHistory | undefined;
  /** How long an answered fact may be owed after a drop; REDELIVERY_WINDOW_MS when absent. */
  redeliveryWindowMs?: number | undefined;
  /** The household lease each delivery checks, and who is told when one is refused for it. */
  lease?: DeliveryLease | undefined;
  /** The household's language, as it is now: the records' names. English when not given. */
  texts?: () => Texts;
}

/** The household lease as a delivery meets it (household-lease.ts). */
export interface DeliveryLease {
  /** The helper the delivery script reads, and this run's token it must find there. */
  guard: { entityId: string; run: string };
  /**
   * A fact was refused for the lease: judged again now. True when this run holds it still (Home
   * Assistant lost the helper in a crash, say, and it was written again); false when another run
   * took it (the bridge is told and stops publishing) or Home Assistant could not be asked.
   */
  reclaim: () => Promise<boolean>;
}

/**
 * Delivers facts to Home Assistant as bus events (the names' event type), each exactly once
 * through restarts of either side: a script fires the event and records the fact in the child's
 * delivery record of its stream (her journal's, or her derived facts': delivery-stream.ts) in one
 * run (delivery-script.ts), and the script's result is the acknowledgement. After Home Assistant
 * died with facts it had answered but not saved, those go again, marked redelivered
 * (recent-deliveries.ts).
 */
export class EventDeliverer {
  readonly #connection: HomeAssistantLink;
  readonly #entities: EntityPublisher;
  readonly #names: EntityNames;
  readonly #logger: Logger;
  readonly #identityOf: (child: ChildRef) => ChildIdentity;
  /** The children's delivery records (input_text helpers, two each), which the sink keeps in step. */
  readonly records: DeliveryRecords;
  /** Facts answered lately: a crash of Home Assistant may have taken what they set off. */
  readonly #recent: RecentDeliveries;
  /** When Home Assistant last refused a fact (not a dropped link): the status shows it degraded. */
  #lastRefusal = 0;
  readonly #lease: EventDelivererOptions["lease"];

  constructor(options: EventDelivererOptions) {
    this.#connection = options.connection;
    this.#entities = options.entities;
    this.#names = options.names;
    this.#logger = options.logger;
    this.#identityOf = options.identityOf;
    this.#lease = options.lease;
    this.records = new DeliveryRecords(options.connection, options.logger, options.names, options.texts);
    this.#recent = new RecentDeliveries(
      options.redeliveryWindowMs ?? REDELIVERY_WINDOW_MS,
      options.recentDeliveries,
    );
  }

  get lastRefusal(): number {
    return this.#lastRefusal;
  }

  /**
   * The link dropped (a clean stop too: the bridge cannot tell one from a crash). The records can:
   * after a clean stop, each names the last fact fired, and nothing is owed.
   */
  dropped(): void {
    this.#recent.dropped();
  }

  /** Delivers one fact of `child`. */
  async deliver(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    if (this.#recent.unsettled) {
      // The check after the reconnection failed (Home Assistant was still setting up, say): the
      // facts owed go before any new one.
      await this.redeliverAfterCrash().catch((error: unknown) => {
        throw new NotDeliveredError(
          `the facts answered before Home Assistant restarted could not be sent again yet: ${(error as Error).message}`,
        );
      });
    }
    const identity = this.#identityOf(child);
    const record = await this.#recordOf(child, streamOf(delivery.event));
    try {
      if (!record) {
        // No record to ask (no input_text): a fact in doubt goes again, marked, rather than lost.
        await this.#connection.command({
          type: "fire_event",
          event_type: this.#names.eventType,
          event_data: {
            ...eventData(identity, delivery),
            redelivered: delivery.inDoubt || delivery.uncertain,
          },
        });
        return {};
      }
      const result = await this.#deliverUnderLease(identity, child, delivery, record, delivery.uncertain);
      if (!result.fired && result.unanswered)
        throw new MaybeDeliveredError("Home Assistant did not run the delivery to its end (it was stopping)");
      if (!result.fired) return { alreadyDelivered: true };
      if (result.redelivered) {
        this.#logger.warn(
          { child: child.firstName, event: delivery.event.id, type: delivery.event.type },
          "Home Assistant restarted while a fact was in doubt: sent again, marked redelivered",
        );
      }
      return result.stamp ? { receipt: result.stamp } : {};
    } catch (error) {
      if (error instanceof MaybeDeliveredError) throw error;
      // Not sent at all, and not Home Assistant's refusal: it goes once the wait is over.
      if (error instanceof FactsMustWaitError) throw new NotDeliveredError(error.message);
      // Lost after leaving: Home Assistant may have fired it. Refused or never sent: it did not.
      const lostInFlight =
        error instanceof HomeAssistantConnectionError && !(error instanceof HomeAssistantNotConnectedError);
      if (lostInFlight) {
        throw new MaybeDeliveredError("the connection dropped before Home Assistant acknowledged the event");
      }
      if (!(error instanceof HomeAssistantConnectionError)) {
        this.#lastRefusal = Date.now();
        // The record may be gone (a helper deleted by hand): look for it again next time.
        this.records.reset();
      }
      throw new NotDeliveredError(`Home Assistant did not take the event: ${(error as Error).message}`);
    }
  }

  /**
   * The child's journal record as Home Assistant holds it now: the id of the last journal fact
   * fired and when the record last changed (record-recovery.ts); `unknown` when it cannot keep
   * records.
   */
  async readRecord(child: ChildRef): Promise<DeliveryRecordReading> {
    const record = await this.#recordOf(child, "journal");
    if (!record) return { kind: "unknown" };
    let states: Array<{ entity_id: string; state: string; last_updated: string }>;
    try {
      states = await this.#connection.command({ type: "get_states" });
    } catch (error) {
      throw new NotDeliveredError(`the delivery record could not be read: ${(error as Error).message}`);
    }
    const state = states.find((candidate) => candidate.entity_id === record);
    const updatedAt = Date.parse(state?.last_updated ?? "");
    if (!state || !Number.isFinite(updatedAt)) return { kind: "empty" };
    if (["", "unknown", "unavailable"].includes(state.state)) return { kind: "empty", updatedAt };
    return { kind: "names", factId: state.state, updatedAt };
  }

  /**
   * After a reconnection, before facts flow: when a child's record (of either stream) is behind the
   * facts Home Assistant answered just before the link dropped, it died without saving them, and
   * perhaps before what they set off had run: those facts go again, marked redelivered, in their
   * order (recent-deliveries.ts). A record that names the last fact answered means nothing was lost.
   */
  async redeliverAfterCrash(): Promise<void> {
    const inDoubt = this.#recent.recordsInDoubt();
    if (inDoubt.length > 0) {
      const states = await this.#connection.command<Array<{ entity_id: string; state: string }>>({
        type: "get_states",
      });
      for (const { child, stream } of inDoubt) {
        const record = await this.#recordOf(child, stream);
        if (!record) continue;
        const recorded = states.find((state) => state.entity_id === record)?.state;
        const owed = this.#recent.owed(child.id, stream, recorded);
        if (owed.length === 0) continue;
        this.#logger.warn(
          { child: child.firstName, facts: owed.length, stream },
          "Home Assistant restarted without the last facts it had answered: sent again, marked redelivered",
        );
        for (const { delivery } of owed) {
          const again = { ...delivery, ageSeconds: factAgeSeconds(delivery.event.at) };
          // Refused for the lease, or not run to its end, they stay owed (unsettled): tried again
          // before the next fact.
          const result = await this.#deliverUnderLease(this.#identityOf(child), child, again, record, true);
          if (!result.fired && result.unanswered)
            throw new NotDeliveredError(
              "Home Assistant did not run the delivery to its end (it was stopping)",
            );
        }
      }
    }
    this.#recent.settled();
  }

  /**
   * A scripted delivery the lease let through. Refused for it, the lease is judged again: this run
   * holds it still (Home Assistant lost the helper when it was killed), the fact goes once more;
   * another run took it, nothing was fired and nothing is (NotDeliveredError: it stays owed).
   */
  async #deliverUnderLease(
    identity: ChildIdentity,
    child: ChildRef,
    delivery: FactDelivery,
    record: string,
    resent: boolean,
  ): Promise<DeliveryScriptResult> {
    const result = await this.#deliverScripted(identity, child, delivery, record, resent);
    if (result.fired || result.refused !== "lease") return result;
    if (this.#lease && (await this.#lease.reclaim())) {
      const again = await this.#deliverScripted(identity, child, delivery, record, resent);
      if (again.fired || again.refused !== "lease") return again;
    }
    throw new NotDeliveredError("another Reward Facts bridge holds the household lease");
  }

  /**
   * Runs the delivery script for one fact; `resent` marks it redelivered whatever the record says
   * (a fact Home Assistant answered before it died). Notes the answer for `redeliverAfterCrash`.
   */
  async #deliverScripted(
    identity: ChildIdentity,
    child: ChildRef,
    delivery: FactDelivery,
    record: string,
    resent: boolean,
  ) {
    const data = eventData(identity, delivery);
    const script = deliveryScript({
      eventType: this.#names.eventType,
      data,
      beforeEvent: {
        redelivered: this.#entities.deliverySteps(identity, data, true),
        otherwise: this.#entities.deliverySteps(identity, data, false),
      },
      factId: delivery.event.id,
      recordEntityId: record,
      inDoubt: delivery.inDoubt,
      expectedStamp: delivery.lastReceipt,
      redelivered: resent,
      serviceKey: this.#connection.supportsActionKey ? "action" : "service",
      ...(this.#lease ? { lease: this.#lease.guard } : {}),
    });
    this.#recent.sent(child, delivery);
    const result = readDeliveryResult(await this.#connection.command({ ...script }));
    this.#recent.answered(child, delivery);
    return result;
  }

  /** The child's delivery record of `stream`; undefined only when Home Assistant cannot keep one. */
  async #recordOf(child: ChildRef, stream: DeliveryStream): Promise<string | undefined> {
    const known = this.records.entityFor(child.id, stream);
    if (known || this.records.supported === false) return known;
    let supported: boolean;
    try {
      supported = await this.records.ensure([child]);
    } catch (error) {
      throw new NotDeliveredError(`the delivery record could not be set up: ${(error as Error).message}`);
    }
    const record = this.records.entityFor(child.id, stream);
    if (!record && supported)
      throw new NotDeliveredError("the delivery record was not found in Home Assistant's entity registry");
    return record;
  }
}
