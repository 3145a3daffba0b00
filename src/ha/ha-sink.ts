import type { Today } from "../api/schemas.js";
import { isDerived } from "../engine/derived-facts.js";
import {
  type ChildRef,
  type DeliveryOutcome,
  type DeliveryRecordReading,
  type EngineStatus,
  type FactDelivery,
  NotDeliveredError,
  type Sink,
  SinkRefusedError,
  type UnavailableReason,
} from "../engine/sink.js";
import { BRIDGE_VERSION } from "../version.js";
import {
  childEntities,
  type LastFigures,
  lastFigures,
  refusedStatusEntity,
  statusEntity,
} from "./entities/entities.js";
import { slugsShown } from "./entities/shown-slugs.js";
import { HomeAssistantAuthError, HomeAssistantNotAdminError } from "./link/errors.js";
import { eachPart } from "./parts/sink-part.js";
import { type HomeAssistantSinkOptions, type SinkPieces, wireSink } from "./sink-wiring.js";

/** Failed writes within this window make the status `ha_degraded`. */
const DEGRADED_WINDOW_MS = 10 * 60_000;

/**
 * Publishes what the engine reads into Home Assistant: the children's and the bridge's entities
 * (REST-made states, or registry entities through MQTT: the entity publisher), and facts (of the
 * journal, and derived from the children's days) as `reward_facts_event` bus events, exactly once
 * (event-deliverer.ts). Keeps them in step with Home Assistant's restarts; its parts (parts/:
 * the delivery records, the notifications, the dashboard, Assist, the diagnostics) follow in a loop.
 */
export class HomeAssistantSink implements Sink {
  /** Made once, of the options (sink-wiring.ts). */
  readonly #p: SinkPieces;
  readonly #removeOnStop: boolean;
  readonly #opening: AbortSignal | undefined;
  /** When each child's today was last read. */
  readonly #lastReads = new Map<string, number>();
  /** What each child's last reading said, kept on her unavailable entities for voice answers. */
  readonly #lastFigures = new Map<string, LastFigures>();
  #status: EngineStatus | undefined;
  #lastWriteFailure = 0;
  #stopListening: () => void = () => undefined;

  constructor(options: HomeAssistantSinkOptions) {
    this.#p = wireSink(options, () => void this.#refusalEnded());
    this.#removeOnStop = options.removeOnStop ?? false;
    this.#opening = options.signal;
  }

  /**
   * Joins the link (opening it, unless the lease did) and the broker; SinkRefusedError when Home
   * Assistant refuses the token or the user is not an admin. Gives up when its signal aborts.
   */
  async open(): Promise<void> {
    try {
      await this.#p.entities.open(this.#opening);
      this.#stopListening = this.#p.link.listen({
        running: () => this.#onRunning(),
        ready: () => this.#p.logger.info("Home Assistant is running: publishing"),
        configUpdated: () => void this.#followLanguage(),
        disconnected: () => void eachPart(this.#p.parts, "disconnected").catch(() => undefined),
      });
      await this.#p.link.open(this.#opening);
    } catch (error) {
      if (error instanceof HomeAssistantAuthError || error instanceof HomeAssistantNotAdminError) {
        throw new SinkRefusedError(error.message, { cause: error });
      }
      throw error;
    }
  }

  /** Home Assistant's time zone, once known. */
  timeZone(): string | undefined {
    return this.#p.link.timeZone;
  }

  /** Connected to a RUNNING Home Assistant, every state republished (and to the broker, in MQTT mode). */
  get ready(): boolean {
    return this.#p.link.ready && this.#p.entities.ready;
  }

  async whenReady(signal: AbortSignal): Promise<void> {
    while (!this.ready) {
      await this.#p.link.whenReady(signal);
      await this.#p.entities.whenReady(signal);
    }
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    await this.#p.slugs.settle(children, (newcomers) =>
      slugsShown(
        this.#p.link,
        this.#p.names,
        (id) => this.#p.entities.uniqueIdOf(id, "minutes_remaining"),
        newcomers,
      ),
    );
    const identities = children.map((child) => this.#p.identity(child));
    await this.#publishing(() => this.#p.entities.setChildren(identities));
    await eachPart(this.#p.parts, "children", identities);
  }

  async publishToday(child: ChildRef, today: Today, readAt: number): Promise<void> {
    this.#lastReads.set(child.id, readAt);
    this.#lastFigures.set(child.id, lastFigures(today));
    const identity = this.#p.identity(child);
    await this.#publishing(() =>
      this.#p.entities.publishChild(
        identity,
        childEntities(this.#p.names, this.#p.language.texts, identity, today, readAt),
      ),
    );
    await eachPart(this.#p.parts, "childRead", identity, today, readAt);
  }

  async publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    if (!this.#p.link.ready) throw new NotDeliveredError("Home Assistant is not ready");
    const outcome = await this.#p.events.deliver(child, delivery);
    // The cursor's place: a journal fact (derived facts have a record of their own, not a cursor).
    if (!isDerived(delivery.event)) await eachPart(this.#p.parts, "factDelivered", child.id, delivery.event);
    return outcome;
  }

  /** The child's journal record: record-recovery.ts looks for the fact it names in the journal. */
  async readDeliveryRecord(child: ChildRef): Promise<DeliveryRecordReading> {
    if (!this.#p.link.ready) throw new NotDeliveredError("Home Assistant is not ready");
    return this.#p.events.readRecord(child);
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.#status = status;
    await eachPart(this.#p.parts, "status", status);
    const diagnostics = this.#p.diagnostics.snapshot(status, {
      bridge: BRIDGE_VERSION,
      homeAssistant: this.#p.link.haVersion,
    });
    const lastFailure = Math.max(this.#lastWriteFailure, this.#p.events.lastRefusal);
    const degraded = Date.now() - lastFailure < DEGRADED_WINDOW_MS;
    await this.#publishing(() =>
      this.#p.entities.publishStatus(
        statusEntity(this.#p.names, this.#p.language.texts, status, degraded),
        status,
        diagnostics,
      ),
    );
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    const identity = this.#p.identity(child);
    await eachPart(this.#p.parts, "childUnavailable", child.id, reason);
    await this.#publishing(() =>
      this.#p.entities.markUnavailable(
        identity,
        reason,
        this.#lastReads.get(child.id),
        this.#lastFigures.get(child.id),
      ),
    );
  }

  /** Leaves the link (the app closes it, after the household lease is released). */
  async close(): Promise<void> {
    if (this.#removeOnStop) await this.#removeEverything();
    this.#stopListening();
    await this.#p.entities.close().catch((error: unknown) => {
      this.#p.logger.warn({ err: error }, "the entities could not be told the bridge stops");
    });
    await this.#p.states.close();
    await this.#p.config.close();
  }

  /** Nothing of this run stays in Home Assistant: its entities, then each part's share. */
  async #removeEverything(): Promise<void> {
    await this.#p.entities.remove().catch((error: unknown) => {
      this.#p.logger.warn({ err: error }, "the entities could not be removed from Home Assistant");
    });
    await eachPart(this.#p.parts, "remove").catch(() => undefined);
    this.#p.logger.info("removed what this run had published from Home Assistant");
  }

  /** A failed write is logged and counted (the status says `ha_degraded`), never thrown at the engine. */
  async #publishing(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.#lastWriteFailure = Date.now();
      this.#p.logger.warn({ err: error }, "a state could not be published to Home Assistant");
    }
  }

  /** After every (re)connection, before facts flow: the parts, every state, the parts again. */
  async #onRunning(): Promise<void> {
    this.#p.language.follow(this.#p.link.language);
    await eachPart(this.#p.parts, "connected");
    const refusal = this.#p.entities.refusal;
    if (refusal) {
      // Nothing can be published the chosen way: the status says so (as a REST-made state, the
      // one way left) and a notification tells what to fix; facts wait, nothing is lost.
      await this.#publishing(async () => {
        await this.#p.states.write([refusedStatusEntity(this.#p.names, this.#p.language.texts, refusal)]);
      });
      await eachPart(this.#p.parts, "refused");
      return;
    }
    await this.#republish();
    await eachPart(this.#p.parts, "running");
  }

  /**
   * The broker takes the bridge again (the add-on asked the Supervisor anew): everything the
   * refusal held back, as after a connection. While Home Assistant is away, its return does it.
   */
  async #refusalEnded(): Promise<void> {
    if (!this.#p.link.ready) return;
    await this.#publishing(() => this.#republish());
    if (this.#status) await this.publishStatus(this.#status);
  }

  /** After Home Assistant (re)started: every state again. */
  async #republish(): Promise<void> {
    await this.#p.entities.republish();
    this.#p.logger.info({ mode: this.#p.entities.mode }, "published every entity to Home Assistant");
    await eachPart(this.#p.parts, "republished");
  }

  /**
   * Home Assistant's general settings changed: when its language did, everything the bridge wrote
   * in words is written again in the new one (entity names through MQTT discovery; REST-made
   * states at their next reading; the status, the dashboard, a notification shown).
   */
  async #followLanguage(): Promise<void> {
    if (!this.#p.language.follow(this.#p.link.language) || !this.#p.link.ready) return;
    await this.#publishing(() => this.#p.entities.republish());
    if (this.#status) await this.publishStatus(this.#status);
    await eachPart(this.#p.parts, "language");
  }
}
