import { Pool, request } from "../../http/undici.js";
import { HomeAssistantHttpError } from "./errors.js";

// Home Assistant's configuration API for automations and scripts (`/api/config/<kind>/config/<id>`,
// what its editors use): an item is written into automations.yaml or scripts.yaml and reloaded. No
// websocket command writes one. The bridge keeps its own items there (assist-answers.ts).

export type ConfigKind = "automation" | "script";

export interface ConfigApiOptions {
  url: string;
  token: string;
}

export class ConfigApi {
  readonly #o: ConfigApiOptions;
  readonly #pool: Pool;

  constructor(options: ConfigApiOptions) {
    this.#o = options;
    this.#pool = new Pool(new URL(options.url).origin, {
      connectTimeout: 10_000,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
  }

  /** The item as saved, or undefined when there is none. */
  async read(kind: ConfigKind, id: string): Promise<Record<string, unknown> | undefined> {
    const { status, body } = await this.#call("GET", kind, id);
    if (status === 404) return undefined;
    return JSON.parse(body) as Record<string, unknown>;
  }

  /** Writes the item (made or replaced) and has Home Assistant reload its kind. */
  async write(kind: ConfigKind, id: string, config: Record<string, unknown>): Promise<void> {
    await this.#call("POST", kind, id, config);
  }

  /** Deletes the item; true when there was one. */
  async remove(kind: ConfigKind, id: string): Promise<boolean> {
    const { status } = await this.#call("DELETE", kind, id);
    return status !== 404;
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #call(
    method: "GET" | "POST" | "DELETE",
    kind: ConfigKind,
    id: string,
    config?: Record<string, unknown>,
  ): Promise<{ status: number; body: string }> {
    const path = `/api/config/${kind}/config/${encodeURIComponent(id)}`;
    const response = await request(`${this.#o.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.#o.token}`,
        ...(config ? { "content-type": "application/json" } : {}),
      },
      ...(config ? { body: JSON.stringify(config) } : {}),
      dispatcher: this.#pool,
    });
    const body = await response.body.text();
    // Releases before 2024.10 answer a DELETE of an item they do not have with a 400 of that message.
    if (response.statusCode === 400 && body.includes("Resource not found")) return { status: 404, body };
    if (response.statusCode >= 300 && response.statusCode !== 404) {
      throw new HomeAssistantHttpError(
        `Home Assistant answered ${response.statusCode} to ${method} ${path}: ${body.slice(0, 200)}`,
        response.statusCode,
      );
    }
    return { status: response.statusCode, body };
  }
}
