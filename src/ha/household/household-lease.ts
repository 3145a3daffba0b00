import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { SinkRefusedError } from "../../engine/sink.js";
import type { Logger } from "../../log/logger.js";
import { sleep } from "../../time/sleep.js";
import { contractNames } from "../entities/entity-names.js";
import { callService } from "../link/commands.js";
import type { HomeAssistantLink } from "../link/connection.js";
import { HomeAssistantAuthError, HomeAssistantNotAdminError } from "../link/errors.js";
import { createInputText, hideEntity, listInputTexts } from "../link/input-text-helpers.js";
import { ANOTHER_BRIDGE_NOTIFICATION_ID } from "../link/notifications.js";
import { fill, textsFor } from "../texts/texts.js";
import {
  describeHolder,
  encodeLease,
  judgeLease,
  type LeaseAsker,
  type LeaseHolder,
  type LeaseJudgement,
  type LeaseReading,
} from "./lease.js";
import { DEFAULT_BEAT_MS, isRunning, readLease } from "./lease-reading.js";

// One bridge per household: before it publishes anything, a bridge takes the household lease, an
// input_text helper in Home Assistant naming the bridge that publishes there (lease.ts for the
// rules), and renews it every beat while it runs. A second bridge finds it held: it says so (one
// log line, one notification naming both), publishes nothing (no connection to the broker even),
// and checks again every beat, so it takes over once the first is removed or has been silent for
// three beats (killed). A helper rather than a retained MQTT message: it works in both publishing
// modes, and Home Assistant keeps it across its restarts. Each fact's delivery script checks it too
// (delivery-script.ts): a bridge that believes it holds the lease while another run does cannot
// fire a fact, whatever the two believe.

export interface HouseholdLeaseOptions {
  /** The run's one link to Home Assistant: the lease opens it, the sink finds it open. */
  link: HomeAssistantLink;
  /** Where the lease's state is read, with its age by Home Assistant's clock (REST answers carry a Date). */
  access: { url: string; token: string };
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

/** After writing the lease, the wait before reading it back: two bridges starting at once, the later write wins. */
const SETTLE_MS = 2_000;
/** How often the heartbeat says "alive and waiting" while Home Assistant is awaited. */
const WAITING_BEAT_MS = 30_000;

/** The lease, held: renewed every beat until released. */
export interface HeldLease {
  /** What a delivery checks the lease against: the helper, and this run's token in it. */
  readonly guard: { entityId: string; run: string };
  /**
   * Judges the lease again now (a delivery was refused for it), and writes it again while it is
   * this run's: true then. Lost, the bridge is told (onLost) and it is false; so it is when Home
   * Assistant cannot be asked.
   */
  check(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * Waits until this bridge holds the household lease (at once, unless another bridge publishes to
 * this Home Assistant), then keeps it. Rejects only when `signal` aborts, or with SinkRefusedError
 * when Home Assistant refuses the token (or its user is no administrator): the lease meets the
 * token first, and a person must fix it, as when the sink meets it.
 */
export async function holdHouseholdLease(options: HouseholdLeaseOptions): Promise<HeldLease> {
  const lease = new HouseholdLease(options);
  try {
    await lease.acquire();
  } catch (error) {
    lease.close();
    if (error instanceof HomeAssistantAuthError || error instanceof HomeAssistantNotAdminError)
      throw new SinkRefusedError(error.message, { cause: error });
    throw error;
  }
  return lease;
}

class HouseholdLease implements HeldLease {
  readonly #o: HouseholdLeaseOptions;
  readonly #connection: HomeAssistantLink;
  readonly #self: LeaseHolder;
  readonly #asker: LeaseAsker;
  readonly #beatMs: number;
  readonly #helperId = contractNames.leaseHelper;
  readonly #entityId = `input_text.${contractNames.leaseHelper}`;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<unknown> = Promise.resolve();
  /** Another run took the lease: told once, never judged again. */
  #lost = false;

  constructor(options: HouseholdLeaseOptions) {
    this.#o = options;
    this.#beatMs = options.beatMs ?? DEFAULT_BEAT_MS;
    this.#self = {
      id: options.instanceId,
      run: randomBytes(6).toString("hex"),
      host: hostname(),
      mode: options.mode,
      pid: process.pid,
      since: new Date().toISOString(),
    };
    this.#asker = { id: options.instanceId, run: this.#self.run as string, host: this.#self.host, isRunning };
    this.#connection = options.link;
  }

  get guard(): { entityId: string; run: string } {
    return { entityId: this.#entityId, run: this.#asker.run };
  }

  async acquire(): Promise<void> {
    const { signal } = this.#o;
    // Waiting for Home Assistant is healthy (a boot takes minutes): the heartbeat says so meanwhile.
    const waiting = setInterval(() => this.#o.onWait?.(), WAITING_BEAT_MS);
    try {
      await this.#connection.open(signal);
      await this.#connection.whenReady(signal);
      await this.#takeWhenFree();
    } finally {
      clearInterval(waiting);
    }
    await callService(this.#connection, "persistent_notification", "dismiss", {
      notification_id: ANOTHER_BRIDGE_NOTIFICATION_ID,
    }).catch(() => undefined);
    this.#timer = setInterval(() => {
      this.#renewing = this.#renew();
    }, this.#beatMs);
    this.#timer.unref();
  }

  /** Checks every beat until the lease is free or this bridge's, and takes it. */
  async #takeWhenFree(): Promise<void> {
    const { logger, signal } = this.#o;
    let told: string | undefined;
    while (true) {
      signal.throwIfAborted();
      this.#o.onWait?.();
      const taken = await this.#tryTake().catch((error: unknown) => {
        // Home Assistant restarting, a helper it refused: tried again at the next beat.
        logger.debug({ err: error }, "the household lease could not be checked");
        return "unknown" as const;
      });
      if (taken === undefined) break;
      const holderRun = taken === "unknown" ? undefined : `${taken.holder.id}/${taken.holder.run}`;
      if (taken !== "unknown" && holderRun !== told) {
        told = holderRun;
        logger.warn(this.#waitingLine(taken));
        await this.#notify(taken.holder).catch((error: unknown) =>
          logger.warn({ err: error }, "a notification could not be updated in Home Assistant"),
        );
      }
      await sleep(this.#beatMs, signal);
    }
    if (told) logger.info("the other bridge's household lease ended: this bridge publishes now");
  }

  /** Why this bridge waits, in one line. */
  #waitingLine(taken: Extract<LeaseJudgement, { kind: "taken" }>): string {
    const waits = `publishes nothing and checks again every ${Math.round(this.#beatMs / 1000)} s`;
    if (taken.copy)
      return (
        `another Reward Facts bridge runs with this bridge's own identity (${describeHolder(taken.holder)}): ` +
        `its data directory was copied (moved from the add-on to standalone, or a backup restored beside ` +
        `it); this one (${describeHolder(this.#self)}) ${waits}; stop one of them, or give this one a data ` +
        "directory of its own (status another_bridge)"
      );
    return (
      `another Reward Facts bridge already publishes to this Home Assistant (${describeHolder(taken.holder)}): ` +
      `this one (${describeHolder(this.#self)}) ${waits}; stop one of them (status another_bridge)`
    );
  }

  /** Judges the lease again now: a delivery was refused for it (delivery-script.ts). */
  async check(): Promise<boolean> {
    await this.#renewing;
    const renewing = this.#renew();
    this.#renewing = renewing;
    return renewing;
  }

  /** Gives the lease up (a clean stop): another bridge may take it at its next check. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    await this.#renewing;
    try {
      const now = judgeLease(await this.#read(), this.#asker, this.#ttl);
      if (now.kind === "mine" && !now.restarted) await this.#write("");
    } finally {
      this.close();
    }
  }

  /** Stops renewing; the link is the app's, closed by it. */
  close(): void {
    clearInterval(this.#timer);
  }

  get #ttl(): number {
    return 3 * this.#beatMs;
  }

  /** Takes the lease when it is free or this bridge's; the judgement when another bridge holds it. */
  async #tryTake(): Promise<Extract<LeaseJudgement, { kind: "taken" }> | undefined> {
    await this.#ensureHelper();
    const before = judgeLease(await this.#read(), this.#asker, this.#ttl);
    if (before.kind === "taken") return before;
    if (before.kind === "free" && before.expired)
      this.#o.logger.info(
        { holder: describeHolder(before.expired) },
        "the household lease of a bridge silent for too long has expired: this bridge takes it",
      );
    await this.#write(this.#lease());
    // This bridge's own earlier run (restarted in place): nobody else to settle with.
    if (before.kind === "mine") return undefined;
    await sleep(SETTLE_MS, this.#o.signal);
    const after = judgeLease(await this.#read(), this.#asker, this.#ttl);
    return after.kind === "taken" ? after : undefined;
  }

  async #renew(): Promise<boolean> {
    if (this.#lost) return false;
    try {
      const now = judgeLease(await this.#read(), this.#asker, this.#ttl);
      if (now.kind === "taken") {
        this.#lost = true;
        clearInterval(this.#timer);
        this.#o.onLost(
          new LeaseLostError(
            now.copy
              ? `another Reward Facts bridge with this bridge's own identity took over publishing to this Home Assistant (${describeHolder(now.holder)})`
              : `another Reward Facts bridge took over publishing to this Home Assistant (${describeHolder(now.holder)})`,
          ),
        );
        return false;
      }
      // Deleted by hand, or lost by a Home Assistant killed before it saved it: made again, or no
      // delivery could check it.
      if (now.kind === "free") await this.#ensureHelper();
      await this.#write(this.#lease());
      return true;
    } catch (error) {
      // Home Assistant away: the next beat tries again (the lease lasts three).
      this.#o.logger.debug({ err: error }, "the household lease could not be renewed");
      return false;
    }
  }

  #lease(): string {
    return encodeLease({ ...this.#self, beat: new Date().toISOString() });
  }

  async #ensureHelper(): Promise<void> {
    const items = await listInputTexts(this.#connection);
    // None kept (recovery mode): checked again at the next beat, as when Home Assistant is away.
    if (!items) throw new Error("Home Assistant has not set up its input_text helpers");
    if (items.some((item) => item.id === this.#helperId)) return;
    await createInputText(this.#connection, {
      id: this.#helperId,
      // In Home Assistant's language as it is at creation (named once: a person may rename it).
      name: textsFor(this.#connection.language).texts.helpers.lease,
      max: 255,
      icon: "mdi:key-chain-variant",
    });
    await hideEntity(this.#connection, this.#entityId);
  }

  #read(): Promise<LeaseReading> {
    return readLease(this.#o.access);
  }

  async #write(value: string): Promise<void> {
    await callService(this.#connection, "input_text", "set_value", { entity_id: this.#entityId, value });
  }

  async #notify(holder: LeaseHolder): Promise<void> {
    const { another_bridge_title, another_bridge_message } = textsFor(this.#connection.language).texts
      .notifications;
    await callService(this.#connection, "persistent_notification", "create", {
      notification_id: ANOTHER_BRIDGE_NOTIFICATION_ID,
      title: another_bridge_title,
      message: fill(another_bridge_message, {
        holder: describeHolder(holder),
        self: describeHolder(this.#self),
      }),
    });
  }
}
