import { readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, type Dispatcher, request } from "undici";
import { type WaitCheck, type WaitForOptions, waitFor } from "../support/wait-for.js";
import { type EventRecorder, RecordingSubscription } from "./event-recorder.js";
import { RunLogs } from "./ha-run-logs.js";
import { HaCommandError, HaSocket } from "./ha-websocket.js";
import { type HassExit, HassProcess } from "./hass-process.js";
import { onboardAndGetToken } from "./home-assistant-auth.js";
import type { HomeAssistantInstall } from "./home-assistant-install.js";
import type { HaState, HomeAssistantInstance } from "./home-assistant-types.js";
import type { HomeAssistantVersion } from "./home-assistant-versions.js";
import { tailLines } from "./run-command.js";

const startTimeoutMs = 120_000;

/** HA does not exit when its port is taken: it logs this and carries on without an HTTP server. */
export class PortTakenError extends Error {
  override name = "PortTakenError";
}

/** Lines after which waiting longer is pointless, though the process is still alive. */
const fatalLogLines = [
  { pattern: /Failed to create HTTP server at port/, portTaken: true },
  { pattern: /Activating recovery mode/, portTaken: false },
];

/** One Home Assistant on one config dir and port, across restarts. */
export class HomeAssistant implements HomeAssistantInstance {
  readonly version: HomeAssistantVersion;
  readonly url: string;
  readonly wsUrl: string;
  readonly logPath: string;
  readonly #consolePath: string;
  readonly #runLogs: RunLogs;
  readonly #recorders = new Set<RecordingSubscription>();
  #agent = newAgent();
  #process: HassProcess | undefined;
  // Private, and reached through a getter, so that logging or inspecting the instance cannot print it.
  #token: string | undefined;
  #stopping: Promise<void> | undefined;
  #restarting: Promise<void> | undefined;

  constructor(
    private readonly install: HomeAssistantInstall,
    readonly configDir: string,
    readonly port: number,
  ) {
    this.version = install.version;
    this.url = `http://127.0.0.1:${port}`;
    this.wsUrl = `ws://127.0.0.1:${port}/api/websocket`;
    this.logPath = join(configDir, "ha.log");
    this.#consolePath = join(configDir, "hass-console.log");
    this.#runLogs = new RunLogs(this.logPath);
  }

  get token(): string {
    if (this.#token === undefined) throw new Error("Home Assistant is not onboarded yet");
    return this.#token;
  }

  async boot(): Promise<void> {
    const started = Date.now();
    log(`starting Home Assistant ${this.version} on ${this.url} (config ${this.configDir})`);
    this.#spawn();
    await this.#waitWhileAlive("the HTTP server (GET /api/onboarding 200)", async () => {
      const response = await request(`${this.url}/api/onboarding`, { dispatcher: this.#agent });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`GET /api/onboarding answered ${response.statusCode}`);
      return true;
    });
    this.#token = await onboardAndGetToken(this.url, this.#agent);
    await this.#waitUntilRunning();
    await this.#confirmHttpConfig();
    const config = await this.api<{ version?: string }>("GET", "/api/config");
    if (config.body.version !== this.version)
      throw await this.#startError(`Home Assistant says it is ${config.body.version}, not ${this.version}`);
    log(`Home Assistant ${this.version} RUNNING after ${seconds(started)}`);
  }

  isRunning(): boolean {
    return this.#process?.isRunning ?? false;
  }

  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      await Promise.all([...this.#recorders].map((recorder) => recorder.close()));
      await this.#process?.stop();
      await this.#agent.destroy();
      if (process.env.KEEP_HA_DIR) log(`kept ${this.configDir} (KEEP_HA_DIR)`);
      else await rm(this.configDir, { recursive: true, force: true });
    })();
    return this.#stopping;
  }

  async kill(): Promise<void> {
    await this.#process?.kill();
  }

  freeze(frozen: boolean): void {
    this.#process?.freeze(frozen);
  }

  restart(): Promise<void> {
    if (this.#stopping)
      return Promise.reject(new Error("Home Assistant was stopped for good; start a new one"));
    this.#restarting ??= (async () => {
      const started = Date.now();
      await this.#process?.stop();
      // Pooled keep-alive sockets point at the old process.
      await this.#agent.destroy();
      this.#agent = newAgent();
      this.#spawn();
      // Listening again as soon as the websocket answers, before Core is RUNNING: nothing a test
      // watches (the bridge waits for RUNNING) fires before, so no recorder misses an event.
      await this.#waitWhileAlive("the websocket (recorders subscribed again)", async () => {
        await Promise.all([...this.#recorders].map((recorder) => recorder.resubscribe()));
        return true;
      });
      await this.#waitUntilRunning();
      log(`Home Assistant restarted, RUNNING after ${seconds(started)}`);
    })().finally(() => {
      this.#restarting = undefined;
    });
    return this.#restarting;
  }

  async api<T = unknown>(
    method: Dispatcher.HttpMethod,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await request(`${this.url}${path}`, {
      method,
      dispatcher: this.#agent,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.body.text();
    const isJson = String(response.headers["content-type"] ?? "").includes("json");
    return { status: response.statusCode, body: (isJson && text ? JSON.parse(text) : text) as T };
  }

  async getState(entityId: string): Promise<HaState | null> {
    const path = `/api/states/${encodeURIComponent(entityId)}`;
    const response = await this.api<HaState>("GET", path);
    if (response.status === 404) return null;
    return expectStatus(response, 200, `GET ${path}`);
  }

  async getStates(): Promise<HaState[]> {
    return expectStatus(await this.api<HaState[]>("GET", "/api/states"), 200, "GET /api/states");
  }

  async callService(domain: string, service: string, data: Record<string, unknown> = {}): Promise<HaState[]> {
    const path = `/api/services/${encodeURIComponent(domain)}/${encodeURIComponent(service)}`;
    return expectStatus(await this.api<HaState[]>("POST", path, data), 200, `POST ${path}`);
  }

  async wsCommand<T = unknown>(message: { type: string } & Record<string, unknown>): Promise<T> {
    const socket = await this.openSocket();
    try {
      return await socket.command<T>(message);
    } finally {
      await socket.close();
    }
  }

  async fireEvent(eventType: string, data: Record<string, unknown> = {}): Promise<void> {
    await this.wsCommand({ type: "fire_event", event_type: eventType, event_data: data });
  }

  openSocket(): Promise<HaSocket> {
    return HaSocket.open(this.wsUrl, this.token);
  }

  async subscribeEvents(eventType: string): Promise<EventRecorder> {
    const recorder = new RecordingSubscription(
      eventType,
      () => this.openSocket(),
      (closed) => this.#recorders.delete(closed),
    );
    await recorder.resubscribe();
    this.#recorders.add(recorder);
    return recorder;
  }

  async waitForState(
    entityId: string,
    expected: string | ((state: HaState) => boolean),
    options: { timeoutMs?: number } = {},
  ): Promise<HaState> {
    const matches = typeof expected === "string" ? (s: HaState) => s.state === expected : expected;
    let last: HaState | null = null;
    try {
      return await waitFor(
        async () => {
          last = await this.getState(entityId);
          return last !== null && matches(last) ? last : undefined;
        },
        { timeoutMs: options.timeoutMs ?? 10_000 },
      );
    } catch (error) {
      const wanted = typeof expected === "string" ? `"${expected}"` : "the expected state";
      const seen = last === null ? "absent" : `"${(last as HaState).state}"`;
      throw new Error(`${entityId} is ${seen}, not ${wanted}: ${(error as Error).message}`);
    }
  }

  waitFor<T>(check: WaitCheck<T>, options?: WaitForOptions): Promise<T> {
    return waitFor(check, options);
  }

  readLog(): Promise<string> {
    return this.#runLogs.readAll();
  }

  #spawn(): void {
    this.#runLogs.archivePrevious();
    const { root } = this.install;
    // Home Assistant in a root sees the config dir at its path inside that root.
    const seen = (path: string) => (root ? `/${relative(root, path)}` : path);
    this.#process = HassProcess.start({
      launcher: this.install.launcher,
      root,
      hassBin: this.install.hassBin,
      configDir: seen(this.configDir),
      logPath: seen(this.logPath),
      consolePath: this.#consolePath,
    });
  }

  /**
   * From 2026 Home Assistant takes the YAML `http:` settings (our port) as a trial: unless an
   * administrator confirms them it restarts on its default port 8123 five minutes later, and its
   * frontend asks to confirm. Confirmed here, as the owner would; 2024.3 has no such trial.
   */
  async #confirmHttpConfig(): Promise<void> {
    let config: { pending: unknown };
    try {
      config = await this.wsCommand<{ pending: unknown }>({ type: "http/config" });
    } catch (error) {
      if (error instanceof HaCommandError && error.code === "unknown_command") return;
      throw error;
    }
    if (config.pending) await this.wsCommand({ type: "http/config/promote" });
  }

  /** Automations attach their triggers at `homeassistant_started`: nothing is reliable before RUNNING. */
  #waitUntilRunning(): Promise<void> {
    return this.#waitWhileAlive("state RUNNING (GET /api/config)", async () => {
      const config = await this.api<{ state?: string }>("GET", "/api/config");
      return config.status === 200 && config.body.state === "RUNNING";
    });
  }

  /** Polls `check` until true; fails at once, with HA's last words, if the process exits. */
  async #waitWhileAlive(what: string, check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + startTimeoutMs;
    let lastError: unknown;
    for (;;) {
      const hass = this.#process;
      if (!hass?.isRunning) {
        throw await this.#startError(`Home Assistant exited (${describeExit(hass?.exit)}) before ${what}`);
      }
      try {
        if (await check()) return;
      } catch (error) {
        lastError = error;
      }
      const logText = await readFile(this.logPath, "utf8").catch(() => "");
      const fatal = fatalLogLines.find((sign) => sign.pattern.test(logText));
      if (fatal) {
        const error = await this.#startError(`Home Assistant cannot serve the tests (before ${what})`);
        throw fatal.portTaken ? new PortTakenError(error.message) : error;
      }
      if (Date.now() > deadline) {
        const because = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
        throw await this.#startError(
          `Home Assistant did not reach ${what} within ${startTimeoutMs / 1000} s${because}`,
        );
      }
      await sleep(250);
    }
  }

  async #startError(message: string): Promise<Error> {
    const tail = async (path: string, lines: number) =>
      tailLines(await readFile(path, "utf8").catch(() => "(none)"), lines);
    return new Error(
      `${message}\n--- ${this.logPath} (tail) ---\n${await tail(this.logPath, 40)}` +
        `\n--- stdout/stderr (tail) ---\n${await tail(this.#consolePath, 15)}`,
    );
  }
}

function expectStatus<T>(response: { status: number; body: T }, status: number, what: string): T {
  if (response.status !== status) {
    throw new Error(`${what} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
  }
  return response.body;
}

function newAgent(): Agent {
  return new Agent({ connectTimeout: 5_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
}

function describeExit(exit: HassExit | undefined): string {
  if (!exit) return "not started";
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

export function log(message: string): void {
  process.stderr.write(`[home-assistant] ${message}\n`);
}
