import pRetry from "p-retry";
import { Pool, request } from "../../http/undici.js";
import type { Logger } from "../../log/logger.js";
import { HomeAssistantHttpError } from "./errors.js";

/** A state as written through REST (entities.ts's EntityState is one). */
export interface WrittenState {
  entityId: string;
  state: string;
  attributes: Record<string, unknown>;
}

export interface StateWriterOptions {
  /** Base URL of Home Assistant (http://supervisor/core in the add-on). */
  url: string;
  token: string;
  logger: Logger;
  retryMinTimeoutMs?: number;
  /**
   * An attribute that changes at every read (`last_read`): a state that differs only by it is
   * rewritten only once the written one is this old, not at every read, which would fill the
   * recorder with copies of the same values.
   */
  refresh?: { attribute: string; everyMs: number };
}

/**
 * Writes sensor states through Home Assistant's REST API (no websocket command sets a state).
 * It remembers what it last wrote per entity: an unchanged state is not written again, and
 * after Home Assistant restarts (REST-made states do not survive it) everything is rewritten.
 */
export class StateWriter {
  readonly #o: StateWriterOptions;
  /** Kept for the writer's life, as the API client keeps its own (src/api/client.ts says why). */
  readonly #pool: Pool;
  /** The latest state asked for per entity, written or not (republished after a restart). */
  readonly #desired = new Map<string, WrittenState>();
  /** What Home Assistant was last sent successfully per entity, and when, to skip unchanged writes. */
  readonly #written = new Map<string, { key: string; at: number }>();

  constructor(options: StateWriterOptions) {
    this.#o = options;
    this.#pool = new Pool(new URL(options.url).origin, {
      connectTimeout: 10_000,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
  }

  /**
   * Writes the states that differ from what was last written (every one with `again`, after Home
   * Assistant restarted and forgot them); returns how many were written.
   */
  async write(states: readonly WrittenState[], { again = false } = {}): Promise<number> {
    let written = 0;
    for (const state of states) {
      this.#desired.set(state.entityId, state);
      const key = this.#keyOf(state);
      const before = this.#written.get(state.entityId);
      const everyMs = this.#o.refresh?.everyMs ?? Number.POSITIVE_INFINITY;
      if (!again && before?.key === key && Date.now() - before.at < everyMs) continue;
      await this.#post(state);
      this.#written.set(state.entityId, { key, at: Date.now() });
      written++;
    }
    return written;
  }

  /** Writes every state again (after Home Assistant restarted and forgot them). */
  async republishAll(): Promise<number> {
    const states = [...this.#desired.values()];
    for (const state of states) {
      await this.#post(state);
      this.#written.set(state.entityId, { key: this.#keyOf(state), at: Date.now() });
    }
    return states.length;
  }

  /**
   * Removes a state made through this API (Home Assistant keeps it until it restarts); forgets it
   * here too. True when there was one.
   */
  async removeState(entityId: string): Promise<boolean> {
    this.#desired.delete(entityId);
    this.#written.delete(entityId);
    const response = await request(`${this.#o.url}/api/states/${entityId}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${this.#o.token}` },
      dispatcher: this.#pool,
    });
    await response.body.dump();
    if (response.statusCode === 404) return false;
    if (response.statusCode >= 300) {
      throw new HomeAssistantHttpError(
        `Home Assistant answered ${response.statusCode} to DELETE /api/states/${entityId}`,
        response.statusCode,
      );
    }
    return true;
  }

  /** Removes every state written through this writer (the demo's, when it stops). */
  async removeAll(): Promise<number> {
    let removed = 0;
    for (const entityId of [...this.#desired.keys()]) if (await this.removeState(entityId)) removed++;
    return removed;
  }

  /** Calls a service, e.g. persistent_notification.create. */
  async close(): Promise<void> {
    await this.#pool.close();
  }

  #keyOf(state: WrittenState): string {
    const refreshed = this.#o.refresh?.attribute;
    if (!refreshed || !(refreshed in state.attributes))
      return JSON.stringify([state.state, state.attributes]);
    const { [refreshed]: _left, ...attributes } = state.attributes;
    return JSON.stringify([state.state, attributes]);
  }

  #post(state: WrittenState): Promise<void> {
    return this.#send(`/api/states/${state.entityId}`, { state: state.state, attributes: state.attributes });
  }

  /** One POST, retried when Home Assistant is briefly unavailable (a 502 while Core restarts). */
  async #send(path: string, body: unknown): Promise<void> {
    await pRetry(
      async () => {
        const response = await request(`${this.#o.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${this.#o.token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
          dispatcher: this.#pool,
        });
        const text = await response.body.text();
        if (response.statusCode >= 300) {
          throw new HomeAssistantHttpError(
            `Home Assistant answered ${response.statusCode} to POST ${path}: ${text.slice(0, 200)}`,
            response.statusCode,
          );
        }
      },
      {
        retries: 3,
        minTimeout: this.#o.retryMinTimeoutMs ?? 500,
        factor: 2,
        shouldRetry: ({ error }) => !(error instanceof HomeAssistantHttpError) || error.transient,
      },
    );
  }
}
