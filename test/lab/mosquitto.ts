import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freeLoopbackPort } from "../support/free-port.js";
import { ensureDebianProgram } from "./debian-package.js";
import { dieWithParentQuickly } from "./die-with-parent.js";
import { runCommand, tailLines } from "./run-command.js";

/*
 * A real Mosquitto broker for the tests, as the Mosquitto add-on runs it: Debian's `mosquitto`
 * package, installed on first use (as root, from the machine's apt sources) when it is missing.
 * Where it cannot be had, the run fails and says so; no broker library stands in for it.
 */

const MOSQUITTO = "/usr/sbin/mosquitto";
const MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd";

export interface MosquittoOptions {
  /** When set, anonymous clients are refused and this user is the only one (with `moreUsers`). */
  user?: { username: string; password: string };
  /** Users beside `user` (a bridge's, apart from Home Assistant's). */
  moreUsers?: ReadonlyArray<{ username: string; password: string }>;
}

export interface MosquittoBroker {
  readonly url: string;
  readonly port: number;
  /** Stops the broker (SIGTERM). */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop()). */
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  dispose(): Promise<void>;
  /** Gives a user a new password (or adds the user), as a reinstalled broker would: read at its next start. */
  setPassword(username: string, password: string): Promise<void>;
}

/** Installs Debian's mosquitto once per machine; fails with what a person can do otherwise. */
export function ensureMosquitto(): Promise<void> {
  return ensureDebianProgram({ neededBy: "the MQTT tests", binary: MOSQUITTO, packages: ["mosquitto"] });
}

/** A broker of its own on a free loopback port, without persistence. */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<MosquittoBroker> {
  await ensureMosquitto();
  const dir = await mkdtemp(join(tmpdir(), "reward-facts-mosquitto-"));
  const port = await freeLoopbackPort();
  // `user root`: as root, Mosquitto would drop to its own user, who cannot read this private folder.
  const lines = [`listener ${port} 127.0.0.1`, "persistence false", "log_dest stderr", "user root"];
  const passwords = join(dir, "passwords");
  const setPassword = async (username: string, password: string) => {
    const made = await runCommand(MOSQUITTO_PASSWD, ["-b", passwords, username, password], {
      timeoutMs: 30_000,
    });
    if (made.code !== 0) throw new Error(`mosquitto_passwd failed: ${tailLines(made.output, 5)}`);
  };
  if (options.user) {
    await writeFile(passwords, "");
    for (const user of [options.user, ...(options.moreUsers ?? [])])
      await setPassword(user.username, user.password);
    lines.push("allow_anonymous false", `password_file ${passwords}`);
  } else {
    lines.push("allow_anonymous true");
  }
  const config = join(dir, "mosquitto.conf");
  await writeFile(config, `${lines.join("\n")}\n`);
  const logPath = join(dir, "mosquitto.log");
  let child: ChildProcess | undefined;

  const start = async () => {
    const log = openSync(logPath, "a");
    const line = dieWithParentQuickly(MOSQUITTO, ["-c", config]);
    child = spawn(line.command, line.args, { stdio: ["ignore", log, log] });
    closeSync(log);
    const deadline = Date.now() + 15_000;
    while (!(await listening(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `mosquitto did not start on ${port}:\n${await readFile(logPath, "utf8").catch(() => "")}`,
        );
      }
      await sleep(50);
    }
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  process.once("exit", () => child?.kill("SIGKILL"));
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    start,
    stop,
    setPassword,
    dispose: async () => {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.connect(port, "127.0.0.1");
  });
}
