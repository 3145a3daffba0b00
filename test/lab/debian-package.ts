import { existsSync } from "node:fs";
import { join } from "node:path";
import { acquireFileLock } from "./file-lock.js";
import { runCommand, tailLines } from "./run-command.js";
import { machineTmpdir } from "./temp-root.js";

/*
 * A real program the tests need from Debian (Mosquitto, Chromium), installed on first use as root
 * from the machine's own apt sources, under a file lock so that two test workers asking at once
 * install it once. Where it cannot be had, the run fails saying what is missing; nothing stands in.
 */

export interface DebianProgram {
  /** Shown in messages: "the MQTT tests", "the browser tests". */
  neededBy: string;
  /** The file that proves it is installed. */
  binary: string;
  /** Debian packages that bring it (and what it needs to work here). */
  packages: readonly string[];
}

const installs = new Map<string, Promise<void>>();

/** Installs `program` once per machine (once per process asked); rejects with what a person can do. */
export function ensureDebianProgram(program: DebianProgram): Promise<void> {
  let installing = installs.get(program.binary);
  if (!installing) {
    installing = install(program).catch((error: unknown) => {
      installs.delete(program.binary);
      throw error;
    });
    installs.set(program.binary, installing);
  }
  return installing;
}

/**
 * apt-get's options here: wait for dpkg's lock rather than fail at once. A first run installs
 * several of Debian's programs from parallel test files (Mosquitto, Chromium, debootstrap), each
 * under a lock of its own, and apt-get holds one lock for the whole machine.
 */
export const APT_WAITS_FOR_LOCK = ["-o", "DPkg::Lock::Timeout=600"] as const;

async function install({ neededBy, binary, packages }: DebianProgram): Promise<void> {
  if (existsSync(binary)) return;
  const names = packages.join(" ");
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    throw new Error(
      `${neededBy} need ${binary} (Debian's ${names}); it is missing and this machine cannot install it ` +
        "here (not root, or no apt-get): install it and run again",
    );
  }
  const tag = `[${packages[0]}]`;
  const lock = await acquireFileLock(join(machineTmpdir(), `reward-facts-${packages[0]}-install.lock`), {
    python: "python3",
    timeoutMs: 10 * 60_000,
    onWait: () => process.stderr.write(`${tag} waiting for another process installing it\n`),
  });
  try {
    if (existsSync(binary)) return;
    process.stderr.write(`${tag} installing Debian's ${names} (first run only)\n`);
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const aptInstall = () =>
      runCommand(
        "apt-get",
        [...APT_WAITS_FOR_LOCK, "install", "-y", "--no-install-recommends", ...packages],
        {
          timeoutMs: 10 * 60_000,
          env,
        },
      );
    let run = await aptInstall();
    if (run.code !== 0) {
      // A machine whose package lists are stale or absent: fetch them once, then try again.
      await runCommand("apt-get", [...APT_WAITS_FOR_LOCK, "update"], { timeoutMs: 5 * 60_000, env });
      run = await aptInstall();
    }
    if (run.code !== 0 || !existsSync(binary)) {
      throw new Error(`apt-get install ${names} failed (exit ${run.code}):\n${tailLines(run.output, 20)}`);
    }
  } finally {
    await lock.release();
  }
}
