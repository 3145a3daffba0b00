import type { Dispatcher } from "undici";
import type { WaitCheck, WaitForOptions } from "../support/wait-for.js";
import type { EventRecorder } from "./event-recorder.js";
import type { HaSocket } from "./ha-websocket.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";

export interface StartHomeAssistantOptions {
  /** The release to run; the current one (CURRENT_HOME_ASSISTANT_VERSION) by default. */
  version?: HomeAssistantVersion;
  /**
   * YAML text of automations.yaml. In the old `trigger:`/`platform:`/`service:` syntax if it must
   * load on 2024.3 as well (the plural keys need 2024.10); 2026.11 still reads the old one.
   */
  automations?: string;
  /** YAML appended to configuration.yaml. */
  extraConfig?: string;
  /** The household's time zone; Europe/Paris by default. */
  timeZone?: string;
}

/** A state as `/api/states` returns it. Newer HA releases add keys: do not assert exact key sets. */
export interface HaState {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
}

export interface HomeAssistantInstance {
  /** The release running, as its /api/config says. */
  readonly version: HomeAssistantVersion;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** `ws://127.0.0.1:<port>/api/websocket`. */
  readonly wsUrl: string;
  /** A long-lived access token of the owner (an admin); stays valid across `restart()`. */
  readonly token: string;
  readonly port: number;
  /** Host path of its config dir (which Home Assistant may see at another path, inside its root). */
  readonly configDir: string;
  /** HA's own log file, of the current run (HA starts a new one at every start). */
  readonly logPath: string;
  /** Everything HA logged since it was started, its restarts included, oldest first. */
  readLog(): Promise<string>;
  isRunning(): boolean;
  /** Stops HA for good (SIGTERM, SIGKILL after 30 s) and removes the config dir unless KEEP_HA_DIR is set. */
  stop(): Promise<void>;
  /** Stops HA and starts it again on the same dir and port; resolves once RUNNING and recorders re-subscribed. */
  restart(): Promise<void>;
  /** SIGKILLs HA, as a crash would; `restart()` brings it back. */
  kill(): Promise<void>;
  /** Freezes HA (SIGSTOP) with its sockets open, or thaws it (SIGCONT): a half-open link. */
  freeze(frozen: boolean): void;
  /**
   * Waits until the entity's state is `expected` (or passes it, when a check) and resolves with
   * it; the timeout error says what it last was. States are written one after the other, so a
   * test reading one state after seeing another waits for it rather than reading it once.
   */
  waitForState(
    entityId: string,
    expected: string | ((state: HaState) => boolean),
    options?: { timeoutMs?: number },
  ): Promise<HaState>;
  /** An authenticated REST call; the body is parsed as JSON when it is JSON. */
  api<T = unknown>(
    method: Dispatcher.HttpMethod,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  /** GET /api/states/<id>; null when HA does not know the entity. */
  getState(entityId: string): Promise<HaState | null>;
  getStates(): Promise<HaState[]>;
  /** POST /api/services/<domain>/<service>; resolves with the states that changed. */
  callService(domain: string, service: string, data?: Record<string, unknown>): Promise<HaState[]>;
  /** Sends one websocket command on a short-lived connection and resolves with its result. */
  wsCommand<T = unknown>(message: { type: string } & Record<string, unknown>): Promise<T>;
  /** Websocket `fire_event`, as the bridge does it. */
  fireEvent(eventType: string, data?: Record<string, unknown>): Promise<void>;
  /** A new authenticated websocket connection; the caller closes it. */
  openSocket(): Promise<HaSocket>;
  /**
   * Records events of one type on a connection of its own. Survives `restart()` and `kill()` +
   * `restart()`: `restart()` re-subscribes it before resolving. Events fired while HA is down are lost.
   */
  subscribeEvents(eventType: string): Promise<EventRecorder>;
  /** Polls in real time until `check` returns something truthy; see `waitFor`. */
  waitFor<T>(check: WaitCheck<T>, options?: WaitForOptions): Promise<T>;
}
