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
import type { RecentDeliveryHistory } from "../engine/storage.js";
import type { Logger } from "../log/logger.js";
import { BRIDGE_VERSION } from "../version.js";
import { DashboardKeeper } from "./dashboard/dashboard-keeper.js";
import { type DeliveryLease, EventDeliverer } from "./delivery/event-deliverer.js";
import { type ChildIdentity, childEntities, refusedStatusEntity, statusEntity } from "./entities/entities.js";
import { contractNames, type EntityNames } from "./entities/entity-names.js";
import type { EntityPublisher, EntityPublisherFactory } from "./entities/entity-publisher.js";
import { RestEntities } from "./entities/rest/rest-entities.js";
import { SettledSlugs, type SlugMemory } from "./entities/settled-slugs.js";
import { slugsShown } from "./entities/shown-slugs.js";
import { HaConnection } from "./link/connection.js";
import { HomeAssistantAuthError, HomeAssistantNotAdminError } from "./link/errors.js";
import { StateWriter } from "./link/state-writer.js";
import { AssistExposure, type AssistMemory } from "./parts/assist.js";
import { BridgeDiagnostics } from "./parts/bridge-diagnostics.js";
import { BridgeNotices } from "./parts/bridge-notices.js";
import { HouseholdLanguage } from "./texts/household-language.js";

export interface HaSinkOptions {
  url: string;
  token: string;
  logger: Logger;
  /** Standalone: check the token's user is an administrator. */
  requireAdmin: boolean;
  heartbeatMs?: number;
  pongTimeoutMs?: number;
  /** How entities are published; REST-made states when not given. */
  entities?: EntityPublisherFactory;
  /** The ids of the entities, the event and the records: the contract's unless given (the demo's). */
  names?: EntityNames;
  /** At close, remove every entity and record published (the demo's simulated children). */
  removeOnStop?: boolean;
  /** Make and keep the Rewards dashboard (the `dashboard` option). */
  dashboard?: boolean;
  /** Where the facts sent lately are kept across restarts of the bridge; in memory without. */
  recentDeliveries?: RecentDeliveryHistory | undefined;
  /** How long an answered fact may be owed after a drop (REDELIVERY_WINDOW_MS unless a test shortens it). */
  redeliveryWindowMs?: number | undefined;
  /** The household lease every delivery checks (none for the demo), and who hears of a refusal. */
  lease?: DeliveryLease | undefined;
  /** Where the children's settled slugs are kept across restarts (settled-slugs.ts). */
  slugMemory?: SlugMemory | undefined;
  /** Offer the children's entities to Assist, with aliases (assist.ts); on unless told. */
  assist?: boolean;
  /** Where what was offered to Assist is kept across restarts. */
  assistMemory?: AssistMemory | undefined;
  /**
   * Ends the opening when it aborts (a stop during start-up): the first connection to Home
   * Assistant, and to the broker, are not waited for any longer.
   */
  signal?: AbortSignal | undefined;
}

/** Failed writes within this window make the status `ha_degraded`. */
const DEGRADED_WINDOW_MS = 10 * 60_000;
/** While an entity's value does not change, its `last_read` is rewritten this often (StateWriter). */
export const LAST_READ_REFRESH_MS = 10 * 60_000;

/**
 * Publishes what the engine reads into Home Assistant: the children's and the bridge's entities
 * (REST-made states, or registry entities through MQTT: the entity publisher), and facts (of the
 * journal, and derived from the children's days) as `reward_facts_event` bus events, exactly once
 * (event-deliverer.ts). Keeps them in step with Home Assistant's restarts, and the notifications
 * and the dashboard with them.
 */
export class HaSink implements Sink {
  readonly #logger: Logger;
  readonly #names: EntityNames;
  readonly #removeOnStop: boolean;
  readonly #connection: HaConnection;
  readonly #states: StateWriter;
  readonly #entities: EntityPublisher;
  readonly #events: EventDeliverer;
  readonly #dashboard: DashboardKeeper | undefined;
  #children: readonly ChildRef[] = [];
  /** The children have been told once: a dashboard made before would show none. */
  #childrenKnown = false;
  readonly #slugs: SettledSlugs;
  /** When each child's today was last read. */
  readonly #lastReads = new Map<string, number>();
  readonly #notices: BridgeNotices;
  /** The bridge's redacted state for the diagnostics download (bridge-diagnostics.ts). */
  readonly #diagnostics = new BridgeDiagnostics();
  #status: EngineStatus | undefined;
  #lastWriteFailure = 0;
  readonly #opening: AbortSignal | undefined;
  /** Home Assistant's language, which the bridge's texts follow. */
  readonly #language: HouseholdLanguage;
  readonly #assist: AssistExposure;

  constructor(options: HaSinkOptions) {
    this.#logger = options.logger;
    this.#language = new HouseholdLanguage(options.logger);
    this.#names = options.names ?? contractNames;
    this.#removeOnStop = options.removeOnStop ?? false;
    this.#opening = options.signal;
    this.#slugs = new SettledSlugs(options.slugMemory, options.logger);
    this.#states = new StateWriter({
      url: options.url,
      token: options.token,
      logger: options.logger,
      refresh: { attribute: "last_read", everyMs: LAST_READ_REFRESH_MS },
    });
    this.#connection = new HaConnection({
      url: options.url,
      token: options.token,
      logger: options.logger,
      requireAdmin: options.requireAdmin,
      heartbeatMs: options.heartbeatMs ?? 30_000,
      pongTimeoutMs: options.pongTimeoutMs ?? 10_000,
      onRunning: () => this.#onRunning(),
      readyLine: "Home Assistant is running: publishing",
      onConfigUpdated: () => void this.#followLanguage(),
      // Every drop, a clean stop too (connection.ts): facts answered just before may be owed.
      onDisconnected: () => {
        this.#notices.disconnected();
        this.#events.dropped();
      },
    });
    const texts = () => this.#language.texts;
    const parts = {
      connection: this.#connection,
      states: this.#states,
      logger: options.logger,
      names: this.#names,
      texts,
      onRefusalEnded: () => void this.#refusalEnded(),
    };
    this.#entities = (options.entities ?? ((ha) => new RestEntities(ha)))(parts);
    this.#events = new EventDeliverer({
      connection: this.#connection,
      entities: this.#entities,
      names: this.#names,
      logger: options.logger,
      identityOf: (child) => this.#identity(child),
      recentDeliveries: options.recentDeliveries,
      redeliveryWindowMs: options.redeliveryWindowMs,
      lease: options.lease,
    });
    this.#dashboard = options.dashboard
      ? new DashboardKeeper({
          link: this.#connection,
          logger: options.logger,
          names: this.#names,
          texts,
          mode: () => this.#entities.mode,
          haVersion: () => this.#connection.haVersion,
        })
      : undefined;
    const call = (domain: string, service: string, data: Record<string, unknown>) =>
      this.#states.callService(domain, service, data);
    const language = { texts, moment: (at: number) => this.#language.moment(at, this.#connection.timeZone) };
    this.#notices = new BridgeNotices(call, options.logger, language);
    this.#assist = new AssistExposure({
      link: this.#connection,
      names: this.#names,
      logger: options.logger,
      memory: options.assistMemory,
      enabled: options.assist ?? true,
      registryEntities: () => this.#entities.mode === "mqtt",
    });
  }

  /**
   * Connects to Home Assistant; SinkRefusedError when it refuses the token or the user is not an
   * admin. Gives up when the signal it was made with aborts.
   */
  async open(): Promise<void> {
    try {
      await this.#entities.open(this.#opening);
      await this.#connection.open(this.#opening);
    } catch (error) {
      if (error instanceof HomeAssistantAuthError || error instanceof HomeAssistantNotAdminError) {
        throw new SinkRefusedError(error.message, { cause: error });
      }
      throw error;
    }
  }

  /** Home Assistant's time zone, once known. */
  timeZone(): string | undefined {
    return this.#connection.timeZone;
  }

  /** Connected to a RUNNING Home Assistant, every state republished (and to the broker, in MQTT mode). */
  get ready(): boolean {
    return this.#connection.ready && this.#entities.ready;
  }

  async whenReady(signal: AbortSignal): Promise<void> {
    while (!this.ready) {
      await this.#connection.whenReady(signal);
      await this.#entities.whenReady(signal);
    }
  }

  async setChildren(children: readonly ChildRef[]): Promise<void> {
    this.#children = children;
    await this.#slugs.settle(children, (newcomers) =>
      slugsShown(
        this.#connection,
        this.#names,
        (id) => this.#entities.uniqueIdOf(id, "minutes_remaining"),
        newcomers,
      ),
    );
    await this.#publishing(() => this.#entities.setChildren(children.map((child) => this.#identity(child))));
    this.#childrenKnown = true;
    if (this.#connection.ready) {
      await this.#ensureRecords();
      await this.#keepDashboard();
    }
  }

  async publishToday(child: ChildRef, today: Today, readAt: number): Promise<void> {
    this.#lastReads.set(child.id, readAt);
    this.#diagnostics.read(child.id, readAt);
    const identity = this.#identity(child);
    await this.#publishing(() =>
      this.#entities.publishChild(
        identity,
        childEntities(this.#names, this.#language.texts, identity, today, readAt),
      ),
    );
    // Once the child's entities exist (a discovered entity registers a moment after its config).
    if (this.#connection.ready) await this.#assist.keep([identity], this.#language.texts);
    // Her gauge's top follows her unlocked minutes: the dashboard is written again when it moves.
    if (this.#dashboard?.noteToday(identity.slug, today) && this.#connection.ready)
      await this.#keepDashboard();
  }

  async publishEvent(child: ChildRef, delivery: FactDelivery): Promise<DeliveryOutcome> {
    if (!this.#connection.ready) throw new NotDeliveredError("Home Assistant is not ready");
    const outcome = await this.#events.deliver(child, delivery);
    // The cursor's place: a journal fact (derived facts have a record of their own, not a cursor).
    if (!isDerived(delivery.event)) this.#diagnostics.delivered(child.id, delivery.event);
    return outcome;
  }

  /** The child's journal record: record-recovery.ts looks for the fact it names in the journal. */
  async readDeliveryRecord(child: ChildRef): Promise<DeliveryRecordReading> {
    if (!this.#connection.ready) throw new NotDeliveredError("Home Assistant is not ready");
    return this.#events.readRecord(child);
  }

  async publishStatus(status: EngineStatus): Promise<void> {
    this.#status = status;
    this.#diagnostics.status(status.state);
    const diagnostics = this.#diagnostics.snapshot(status, {
      bridge: BRIDGE_VERSION,
      homeAssistant: this.#connection.haVersion,
    });
    const lastFailure = Math.max(this.#lastWriteFailure, this.#events.lastRefusal);
    const degraded = Date.now() - lastFailure < DEGRADED_WINDOW_MS;
    await this.#publishing(() =>
      this.#entities.publishStatus(
        statusEntity(this.#names, this.#language.texts, status, degraded),
        status,
        diagnostics,
      ),
    );
    await this.#notices.status(status.state);
  }

  async markUnavailable(child: ChildRef, reason: UnavailableReason): Promise<void> {
    const identity = this.#identity(child);
    this.#diagnostics.unavailable(child.id, reason);
    await this.#publishing(() =>
      this.#entities.markUnavailable(identity, reason, this.#lastReads.get(child.id)),
    );
  }

  async close(): Promise<void> {
    if (this.#removeOnStop) await this.#removeEverything();
    await this.#entities.close().catch((error: unknown) => {
      this.#logger.warn({ err: error }, "the entities could not be told the bridge stops");
    });
    this.#connection.close();
    await this.#states.close();
  }

  /** Nothing of this run stays in Home Assistant: its entities, its delivery records. */
  async #removeEverything(): Promise<void> {
    const steps: Array<[string, () => Promise<void>]> = [
      ["entities", () => this.#entities.remove()],
      ["delivery records", () => this.#events.records.removeAll()],
      ["dashboard", async () => this.#dashboard?.remove()],
    ];
    for (const [what, step] of steps) {
      await step().catch((error: unknown) => {
        this.#logger.warn({ err: error }, `the ${what} could not be removed from Home Assistant`);
      });
    }
    this.#logger.info("removed what this run had published from Home Assistant");
  }

  #identity(child: ChildRef): ChildIdentity {
    return { id: child.id, firstName: child.firstName, slug: this.#slugs.slugOf(child) };
  }

  /** A failed write is logged and counted (the status says `ha_degraded`), never thrown at the engine. */
  async #publishing(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.#lastWriteFailure = Date.now();
      this.#logger.warn({ err: error }, "a state could not be published to Home Assistant");
    }
  }

  /** After every (re)connection, before facts flow: the records, every state, the notifications. */
  async #onRunning(): Promise<void> {
    this.#language.follow(this.#connection.language);
    // Home Assistant may have restarted and lost a helper created just before.
    this.#events.records.reset();
    // Nor is it known which notifications it shows (bridge-notices.ts).
    this.#notices.connected();
    await this.#ensureRecords().catch((error: unknown) => {
      // Not a reason to hold the states back: each fact asks again before it is sent.
      this.#logger.warn({ err: error }, "the delivery records could not be checked in Home Assistant");
    });
    const refusal = this.#entities.refusal;
    if (refusal) {
      // Nothing can be published the chosen way: the status says so (as a REST-made state, the
      // one way left) and a notification tells what to fix; facts wait, nothing is lost.
      await this.#publishing(async () => {
        await this.#states.write([refusedStatusEntity(this.#names, this.#language.texts, refusal)]);
      });
      await this.#notices.broker(true);
      return;
    }
    await this.#republish();
    await this.#events.redeliverAfterCrash().catch((error: unknown) => {
      // Kept for the next connection: the link dropped again, or the record could not be read.
      this.#logger.warn(
        { err: error },
        "the facts answered before Home Assistant restarted could not be checked",
      );
    });
    // Home Assistant may have been restored from a backup, or the dashboard deleted meanwhile.
    await this.#keepDashboard();
  }

  /**
   * The broker takes the bridge again (the add-on asked the Supervisor anew): everything the
   * refusal held back, as after a connection. While Home Assistant is away, its return does it.
   */
  async #refusalEnded(): Promise<void> {
    if (!this.#connection.ready) return;
    await this.#publishing(() => this.#republish());
    if (this.#status) await this.publishStatus(this.#status);
  }

  async #ensureRecords(): Promise<void> {
    await this.#events.records.ensure(this.#children);
  }

  /** The dashboard of the children followed, once they are known (it logs its own failures). */
  async #keepDashboard(): Promise<void> {
    if (!this.#dashboard || !this.#childrenKnown) return;
    await this.#dashboard.keep(this.#children.map((child) => this.#identity(child)));
  }

  /** After Home Assistant (re)started: every state again, then the status. */
  async #republish(): Promise<void> {
    await this.#entities.republish();
    this.#logger.info({ mode: this.#entities.mode }, "published every entity to Home Assistant");
    // The broker accepted the bridge (or there is none): its notification has no cause left.
    await this.#notices.broker(false);
  }

  /**
   * Home Assistant's general settings changed: when its language did, everything the bridge wrote
   * in words is written again in the new one (entity names through MQTT discovery; REST-made
   * states at their next reading; the status, the dashboard, a notification shown).
   */
  async #followLanguage(): Promise<void> {
    if (!this.#language.follow(this.#connection.language) || !this.#connection.ready) return;
    await this.#publishing(() => this.#entities.republish());
    if (this.#status) await this.publishStatus(this.#status);
    await this.#notices.reword();
    await this.#keepDashboard();
  }
}
