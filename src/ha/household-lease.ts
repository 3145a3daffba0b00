import { hostname } from "node:os";
import { sleep } from "../engine/sleep.js";
import { request } from "../http/undici.js";
import type { Logger } from "../log/logger.js";
import { HaConnection } from "./connection.js";
import { contractNames } from "./entity-names.js";
import { HomeAssistantHttpError } from "./errors.js";
import { describeHolder, encodeLease, judgeLease, type LeaseAsker, type LeaseHolder } from "./lease.js";
import { ANOTHER_BRIDGE_NOTIFICATION_ID } from "./notifications.js";
import { fill, textsFor } from "./texts/texts.js";

// One bridge per household: before it publishes anything, a bridge takes the household lease, an
// input_text helper in Home Assistant naming the bridge that publishes there (lease.ts for the
// rules), and renews it every beat while it runs. A second bridge finds it held: it says so (one
// log line, one notification naming both), publishes nothing (no connection to the broker even),
// and checks again every beat, so it takes over once the first is removed or has been silent for
// three beats (killed). A helper rather than a retained MQTT message: it works in both publishing
// modes, and Home Assistant keeps it across its restarts.

export interface HouseholdLeaseOptions {
  url: string;
  token: string;
  requireAdmin: boolean;
  logger: Logger;
  /** This bridge's id, kept in its data directory. */
  instanceId: string;
  mode: "addon" | "standalone";
  /** How often the lease is renewed, and a waiting bridge checks it; it expires after three. */
  beatMs?: number;
  /** Called while the bridge waits for the lease (the container's heartbeat: waiting is healthy). */
  onWait?: () => void;
  /** Called when another bridge took the lease while this one ran: it must stop publishing. */
  onLost: (error: Error) => void;
  /** Ends the wait (a stop during start-up). */
  signal: AbortSignal;
}

/** Another bridge holds the lease now: this one stops. */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/**
 * Five minutes: each renewal is a state change Home Assistant's recorder keeps (once a minute
 * would be 1,440 rows a day of bookkeeping). A restart in place never waits for it (same instance,
 * or the holder's process gone from this host): only a bridge on another host waits out the
 * fifteen minutes after the first was killed.
 */
const DEFAULT_BEAT_MS = 5 * 60_000;
/** After writing the lease, the wait before reading it back: two bridges starting at once, the later write wins. */
const SETTLE_MS = 2_000;
const READ_TIMEOUT_MS = 3_000;

/**
 * Whether a process of this host runs. This process's own pid is another's that ran before it
 * (a container restarted gives the bridge the same pid): gone.
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lease, held: renewed every beat until released. */
export interface HeldLease {
  release(): Promise<void>;
}

/**
 * Waits until this bridge holds the household lease (at once, unless another bridge publishes to
 * this Home Assistant), then keeps it. Rejects only when `signal` aborts or Home Assistant refuses
 * the token.
 */
export async function holdHouseholdLease(options: HouseholdLeaseOptions): Promise<HeldLease> {
  const lease = new HouseholdLease(options);
  try {
    await lease.acquire();
  } catch (error) {
    lease.close();
    throw error;
  }
  return lease;
}

class HouseholdLease implements HeldLease {
  readonly #o: HouseholdLeaseOptions;
  readonly #connection: HaConnection;
  readonly #self: LeaseHolder;
  readonly #asker: LeaseAsker;
  readonly #beatMs: number;
  readonly #helperId = contractNames.leaseHelper;
  readonly #entityId = `input_text.${contractNames.leaseHelper}`;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<void> = Promise.resolve();

  constructor(options: HouseholdLeaseOptions) {
    this.#o = options;
    this.#beatMs = options.beatMs ?? DEFAULT_BEAT_MS;
    this.#self = {
      id: options.instanceId,
      host: hostname(),
      mode: options.mode,
      pid: process.pid,
      since: new Date().toISOString(),
    };
    this.#asker = { id: options.instanceId, host: this.#self.host, isRunning };
    this.#connection = new HaConnection({
      url: options.url,
      token: options.token,
      logger: options.logger,
      requireAdmin: options.requireAdmin,
      onRunning: () => Promise.resolve(),
    });
  }

  async acquire(): Promise<void> {
    const { logger, signal } = this.#o;
    await this.#connection.open(signal);
    await this.#connection.whenReady(signal);
    let told: string | undefined;
    while (true) {
      signal.throwIfAborted();
      this.#o.onWait?.();
      const holder = await this.#tryTake().catch((error: unknown) => {
        // Home Assistant restarting, a helper it refused: tried again at the next beat.
        logger.debug({ err: error }, "the household lease could not be checked");
        return "unknown" as const;
      });
      if (holder === undefined) break;
      if (holder !== "unknown" && holder.id !== told) {
        told = holder.id;
        logger.warn(
          `another Reward Facts bridge already publishes to this Home Assistant (${describeHolder(holder)}): ` +
            `this one (${describeHolder(this.#self)}) publishes nothing and checks again every ` +
            `${Math.round(this.#beatMs / 1000)} s; stop one of them (status another_bridge)`,
        );
        await this.#notify(holder).catch((error: unknown) =>
          logger.warn({ err: error }, "a notification could not be updated in Home Assistant"),
        );
      }
      await sleep(this.#beatMs, signal);
    }
    if (told) logger.info("the other bridge's household lease ended: this bridge publishes now");
    await this.#connection
      .command({
        type: "call_service",
        domain: "persistent_notification",
        service: "dismiss",
        service_data: { notification_id: ANOTHER_BRIDGE_NOTIFICATION_ID },
      })
      .catch(() => undefined);
    this.#timer = setInterval(() => {
      this.#renewing = this.#renew();
    }, this.#beatMs);
    this.#timer.unref();
  }

  /** Gives the lease up (a clean stop): another bridge may take it at its next check. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    await this.#renewing;
    try {
      if (judgeLease(await this.#read(), this.#asker, Date.now(), this.#ttl).kind === "mine")
        await this.#write("");
    } finally {
      this.close();
    }
  }

  close(): void {
    clearInterval(this.#timer);
    this.#connection.close();
  }

  get #ttl(): number {
    return 3 * this.#beatMs;
  }

  /** Takes the lease when it is free or ours; the holder when another bridge holds it. */
  async #tryTake(): Promise<LeaseHolder | undefined> {
    await this.#ensureHelper();
    const before = judgeLease(await this.#read(), this.#asker, Date.now(), this.#ttl);
    if (before.kind === "taken") return before.holder;
    if (before.kind === "free" && before.expired)
      this.#o.logger.info(
        { holder: describeHolder(before.expired) },
        "the household lease of a bridge silent for too long has expired: this bridge takes it",
      );
    await this.#write(this.#lease());
    await sleep(SETTLE_MS, this.#o.signal);
    const after = judgeLease(await this.#read(), this.#asker, Date.now(), this.#ttl);
    return after.kind === "taken" ? after.holder : undefined;
  }

  async #renew(): Promise<void> {
    try {
      const now = judgeLease(await this.#read(), this.#asker, Date.now(), this.#ttl);
      if (now.kind === "taken") {
        clearInterval(this.#timer);
        this.#o.onLost(
          new LeaseLostError(
            `another Reward Facts bridge took over publishing to this Home Assistant (${describeHolder(now.holder)})`,
          ),
        );
        return;
      }
      await this.#write(this.#lease());
    } catch (error) {
      // Home Assistant away: the next beat tries again (the lease lasts three).
      this.#o.logger.debug({ err: error }, "the household lease could not be renewed");
    }
  }

  #lease(): string {
    return encodeLease({ ...this.#self, beat: new Date().toISOString() });
  }

  async #ensureHelper(): Promise<void> {
    const items = await this.#connection.command<Array<{ id: string }>>({ type: "input_text/list" });
    if (items.some((item) => item.id === this.#helperId)) return;
    await this.#connection.command({
      type: "input_text/create",
      name: this.#helperId,
      max: 255,
      icon: "mdi:key-chain-variant",
    });
    await this.#connection.command({
      type: "input_text/update",
      input_text_id: this.#helperId,
      name: "Reward Facts bridge lease",
      max: 255,
    });
    // Bookkeeping, not something to show: kept off auto-generated dashboards.
    await this.#connection.command({
      type: "config/entity_registry/update",
      entity_id: this.#entityId,
      hidden_by: "user",
    });
  }

  async #read(): Promise<string | undefined> {
    const response = await request(`${this.#o.url}/api/states/${this.#entityId}`, {
      headers: { authorization: `Bearer ${this.#o.token}` },
      // A Home Assistant that does not answer is tried again at the next beat; a stop does not wait.
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (response.statusCode === 404) {
      await response.body.dump();
      return undefined;
    }
    if (response.statusCode >= 300) {
      await response.body.dump();
      throw new HomeAssistantHttpError(
        `Home Assistant answered ${response.statusCode} to GET /api/states/${this.#entityId}`,
        response.statusCode,
      );
    }
    const state = (await response.body.json()) as { state?: unknown };
    return typeof state.state === "string" ? state.state : undefined;
  }

  async #write(value: string): Promise<void> {
    await this.#connection.command({
      type: "call_service",
      domain: "input_text",
      service: "set_value",
      service_data: { entity_id: this.#entityId, value },
    });
  }

  async #notify(holder: LeaseHolder): Promise<void> {
    const { another_bridge_title, another_bridge_message } = textsFor(this.#connection.language).texts
      .notifications;
    await this.#connection.command({
      type: "call_service",
      domain: "persistent_notification",
      service: "create",
      service_data: {
        notification_id: ANOTHER_BRIDGE_NOTIFICATION_ID,
        title: another_bridge_title,
        message: fill(another_bridge_message, {
          holder: describeHolder(holder),
          self: describeHolder(this.#self),
        }),
      },
    });
  }
}
