import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { launchLine } from "./run-command.js";

/** Process groups of every hass still running, for the last-resort kill at exit. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Synchronous by necessity ('exit' runs no more async work): a test run that ends without
  // stop() must not leave Home Assistant behind, holding its port and CPU.
  process.on("exit", () => {
    for (const group of liveGroups) killGroup(group, "SIGKILL");
  });
}

function killGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // ESRCH: already gone.
  }
}

export interface HassLaunch {
  /** A host Python that makes hass die with this process (die-with-parent.ts) and enters its root. */
  launcher: string;
  /** Host path of the root hass runs in (enter-root.ts); undefined to run it on this machine. */
  root: string | undefined;
  /** The paths below as hass sees them: inside the root if there is one. */
  hassBin: string;
  /** Also hass's working directory, so that relative paths in its configuration land there. */
  configDir: string;
  /** HA's own log file (`--log-file`). */
  logPath: string;
  /** Host path where stdout and stderr go: crashes before logging is set up only show there. */
  consolePath: string;
}

export interface HassExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One run of the `hass` process, in a process group of its own. */
export class HassProcess {
  readonly exited: Promise<HassExit>;
  readonly #group: number;
  #exit: HassExit | undefined;

  private constructor(child: ChildProcess, group: number) {
    this.#group = group;
    this.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        // Anything hass started in its group goes with it.
        killGroup(group, "SIGKILL");
        liveGroups.delete(group);
        resolve(this.#exit);
      });
    });
  }

  static start(launch: HassLaunch): HassProcess {
    installExitHook();
    const output = openSync(launch.consolePath, "a");
    let child: ChildProcess;
    try {
      const hassArgs = ["-c", launch.configDir, "--skip-pip", "--log-file", launch.logPath, "--log-no-color"];
      const command = launchLine(launch.hassBin, hassArgs, {
        launcher: launch.launcher,
        root: launch.root,
        cwd: launch.configDir,
      });
      // detached: a new session and process group, so one signal reaches hass and all its children.
      child = spawn(command.command, command.args, {
        detached: true,
        stdio: ["ignore", output, output],
        env: hassEnv(),
        cwd: launch.root ? undefined : launch.configDir,
      });
    } finally {
      closeSync(output);
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error(`could not start ${launch.hassBin}`);
    liveGroups.add(pid);
    // Our own handles must not keep the test process alive; the exit hook and stop() own its life.
    child.unref();
    return new HassProcess(child, pid);
  }

  get isRunning(): boolean {
    return this.#exit === undefined;
  }

  get exit(): HassExit | undefined {
    return this.#exit;
  }

  /** SIGTERM (HA shuts down cleanly), then SIGKILL if it is still there after `graceMs`. */
  async stop(graceMs = 30_000): Promise<HassExit> {
    if (this.#exit) return this.#exit;
    killGroup(this.#group, "SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), graceMs);
    });
    const outcome = await Promise.race([this.exited, late]);
    clearTimeout(timer);
    if (outcome === "late") killGroup(this.#group, "SIGKILL");
    return this.exited;
  }

  /** SIGSTOP / SIGCONT: HA freezes with its sockets open, as a hung host would. */
  freeze(frozen: boolean): void {
    if (!this.#exit) killGroup(this.#group, frozen ? "SIGSTOP" : "SIGCONT");
  }

  /** SIGKILL at once: a crash, as far as HA can tell. */
  async kill(): Promise<HassExit> {
    if (!this.#exit) killGroup(this.#group, "SIGKILL");
    return this.exited;
  }
}

function hassEnv(): NodeJS.ProcessEnv {
  // The caller's Python settings must not leak into the cached virtualenv.
  const { PYTHONPATH: _path, VIRTUAL_ENV: _venv, PYTHONHOME: _home, ...env } = process.env;
  return env;
}
