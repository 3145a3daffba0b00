import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { acquireFileLock } from "./file-lock.js";
import { runCommand, tailLines } from "./run-command.js";

/** 2024.3.3 is the last release that runs on Python 3.11 (2024.4 needs 3.12). */
export const HOME_ASSISTANT_VERSION = "2024.3.3";

/*
 * What `hass --skip-pip` needs to start with our configuration; versions as in the wheel's
 * constraints. The frontend is a critical integration in 2024.3: when it or one of its dependencies
 * cannot be imported, HA falls into recovery mode and the API is not served as configured.
 * - home-assistant-frontend: frontend. janus: file_upload (a frontend dependency).
 * - SQLAlchemy, fnv-hash-fast: analytics (an onboarding dependency) imports the recorder.
 * - Pillow: image_upload; securetar: backup; psutil-home-assistant: hardware (default integrations).
 * - pyotp, PyQRCode: the auth multi-factor modules.
 * - jsonpath, xmltodict: rest (the RESTful sensors the benchmark runs beside the bridge), at the
 *   versions of its manifest.
 */
const extraRequirements = [
  "home-assistant-frontend==20240307.0",
  "janus==1.0.0",
  "SQLAlchemy==2.0.27",
  "fnv-hash-fast==0.5.0",
  "Pillow==10.2.0",
  "securetar==2024.2.1",
  "psutil-home-assistant==0.0.1",
  "pyotp==2.8.0",
  "PyQRCode==1.2.1",
  "jsonpath==0.82.2",
  "xmltodict==0.13.0",
];

/*
 * Pins the wheel's constraints lack, for packages whose later releases break 2024.3.3. josepy 2
 * dropped ComparableX509, which acme uses; hass-nabucasa imports acme, and the http integration
 * imports hass-nabucasa while handling every request, so each one would answer 500.
 */
const extraConstraints = ["josepy==1.14.0"];

/** The integrations a test configuration loads (defaults and their dependencies included). */
const importCheck = [
  "import importlib, hass_nabucasa, pyotp, pyqrcode",
  "for name in ['frontend', 'onboarding', 'analytics', 'file_upload', 'recorder', 'http', 'api',",
  "             'websocket_api', 'automation', 'input_boolean', 'backup', 'hardware', 'image_upload',",
  "             'rest', 'rest.sensor', 'notify', 'file.notify']:",
  "    importlib.import_module('homeassistant.components.' + name)",
].join("\n");

const installTimeoutMs = 10 * 60_000;
/** Another worker may be in the middle of a first install: wait for it rather than fail. */
const lockTimeoutMs = installTimeoutMs + 5 * 60_000;

export interface HomeAssistantInstall {
  /** The `hass` entry point inside the cached virtualenv. */
  hassBin: string;
  /** The virtualenv's Python. */
  python: string;
}

interface Marker {
  version: string;
  requirements: string[];
  constraints: string[];
  python: string;
}

let pending: Promise<HomeAssistantInstall> | undefined;

/**
 * Installs Home Assistant into a virtualenv in a per-user cache, once per machine, and returns
 * where it is. Safe to call from several processes at once. Rejects with a message a person can
 * act on when the machine cannot run it, so a suite depending on it fails instead of skipping.
 */
export function ensureHomeAssistant(): Promise<HomeAssistantInstall> {
  pending ??= install().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

/**
 * `$REWARD_FACTS_HA_CACHE`, else the XDG cache: outside the repo, so clones and CI caches share it.
 * One folder per set of pins: checkouts with different pins (an older clone beside a newer one) each
 * keep their own install instead of removing each other's venv under a running Home Assistant.
 */
export function homeAssistantCacheDir(): string {
  const root =
    process.env.REWARD_FACTS_HA_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "reward-facts-bridge");
  const pins = createHash("sha256")
    .update(JSON.stringify([requirements(), extraConstraints]))
    .digest("hex")
    .slice(0, 8);
  return join(root, `homeassistant-${HOME_ASSISTANT_VERSION}-${pins}`);
}

function requirements(): string[] {
  return [`homeassistant==${HOME_ASSISTANT_VERSION}`, ...extraRequirements];
}

async function install(): Promise<HomeAssistantInstall> {
  const dir = homeAssistantCacheDir();
  const paths = {
    venv: join(dir, "venv"),
    hassBin: join(dir, "venv", "bin", "hass"),
    python: join(dir, "venv", "bin", "python"),
    marker: join(dir, "installed.json"),
    log: join(dir, "install.log"),
    downloads: join(dir, "downloads"),
    constraints: join(dir, "constraints.txt"),
  };
  const result = { hassBin: paths.hassBin, python: paths.python };
  if (await isComplete(paths.marker, paths.hassBin)) return result;

  const python = await findPython311();
  await mkdir(dir, { recursive: true });
  const lock = await acquireFileLock(join(dir, "install.lock"), {
    python: python.path,
    timeoutMs: lockTimeoutMs,
    onWait: () => log(`waiting for another process installing Home Assistant into ${dir}`),
  });
  try {
    // The lock holder before us may have finished the job.
    if (await isComplete(paths.marker, paths.hassBin)) return result;
    log(`installing Home Assistant ${HOME_ASSISTANT_VERSION} into ${dir}, first run only (about a minute)`);
    const started = Date.now();
    const deadline = started + installTimeoutMs;
    // No marker means nothing here can be trusted: a killed install leaves a half-built venv.
    await rm(paths.marker, { force: true });
    await rm(paths.venv, { recursive: true, force: true });
    await rm(paths.downloads, { recursive: true, force: true });
    await writeFile(
      paths.log,
      `install of ${requirements().join(" ")} with ${python.path} (${python.version})\n`,
    );

    const step = async (what: string, command: string, args: string[], hint = "") => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw installError(`${what}: out of time`, paths.log, "");
      // A pip left running by a killed worker would write into the venv the next install rebuilds.
      const run = await runCommand(command, args, {
        timeoutMs: remaining,
        logFile: paths.log,
        env: pipEnv(),
        launcher: python.path,
      });
      if (run.code !== 0)
        throw installError(`${what} failed (exit ${run.code ?? run.signal})${hint}`, paths.log, run.output);
      return run.output;
    };

    await step(
      "creating the virtualenv",
      python.path,
      ["-m", "venv", paths.venv],
      "; on Debian/Ubuntu install python3.11-venv",
    );
    // The wheel ships the constraints HA itself is tested with: pinning every transitive dependency
    // to them keeps this install from drifting as PyPI moves on.
    await step("downloading the Home Assistant wheel", paths.python, [
      "-m",
      "pip",
      "download",
      "--no-deps",
      "--only-binary",
      ":all:",
      "--dest",
      paths.downloads,
      `homeassistant==${HOME_ASSISTANT_VERSION}`,
    ]);
    const wheel = (await readdir(paths.downloads)).find(
      (name) => name.startsWith(`homeassistant-${HOME_ASSISTANT_VERSION}-`) && name.endsWith(".whl"),
    );
    if (!wheel) throw installError("pip download produced no homeassistant wheel", paths.log, "");
    const wheelPath = join(paths.downloads, wheel);
    const constraints = await step("reading package_constraints.txt from the wheel", paths.python, [
      "-c",
      "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('homeassistant/package_constraints.txt').decode())",
      wheelPath,
    ]);
    await writeFile(
      paths.constraints,
      `${constraints.trimEnd()}\n\n# Added by the test harness (home-assistant-install.ts)\n${extraConstraints.join("\n")}\n`,
    );
    await step("pip install", paths.python, [
      "-m",
      "pip",
      "install",
      "--constraint",
      paths.constraints,
      wheelPath,
      ...extraRequirements,
    ]);
    const version = (await step("checking hass", paths.hassBin, ["--version"])).trim();
    if (version !== HOME_ASSISTANT_VERSION) {
      throw installError(
        `hass --version says ${JSON.stringify(version)}, not ${HOME_ASSISTANT_VERSION}`,
        paths.log,
        "",
      );
    }

    // Transitive dependencies can drift past what the constraints pin; an import failing here
    // would otherwise show up later as a Home Assistant in recovery mode.
    await step("importing the integrations the tests load", paths.python, ["-c", importCheck]);

    const marker: Marker = {
      version: HOME_ASSISTANT_VERSION,
      requirements: requirements(),
      constraints: extraConstraints,
      python: python.version,
    };
    // Written last: its presence is the only proof that everything above succeeded.
    await writeFile(paths.marker, `${JSON.stringify(marker, null, 2)}\n`);
    log(
      `installed Home Assistant ${HOME_ASSISTANT_VERSION} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return result;
  } finally {
    await lock.release();
  }
}

async function isComplete(markerPath: string, hassBin: string): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(markerPath, "utf8")) as Partial<Marker>;
    // Changed pins mean a different install, even under the same version folder.
    return (
      marker.version === HOME_ASSISTANT_VERSION &&
      JSON.stringify(marker.requirements) === JSON.stringify(requirements()) &&
      JSON.stringify(marker.constraints) === JSON.stringify(extraConstraints) &&
      existsSync(hassBin)
    );
  } catch {
    return false;
  }
}

/**
 * `$REWARD_FACTS_HA_PYTHON`, `python3.11` or `python3`, whichever is a Python 3.11. Resolved to the
 * interpreter itself: a version-manager shim (pyenv) would sit between us and the child we launch.
 */
async function findPython311(): Promise<{ path: string; version: string }> {
  const override = process.env.REWARD_FACTS_HA_PYTHON;
  const candidates = override ? [override] : ["python3.11", "python3"];
  const probe = "import sys; print('.'.join(map(str, sys.version_info[:3])), sys.executable, sep='\\n')";
  const seen: string[] = [];
  for (const candidate of candidates) {
    try {
      const run = await runCommand(candidate, ["-c", probe], { timeoutMs: 30_000 });
      const [version = "", executable = ""] = run.output.trim().split("\n");
      if (run.code === 0 && version.startsWith("3.11.") && executable) return { path: executable, version };
      seen.push(`${candidate}: ${run.code === 0 ? version : tailLines(run.output, 1) || `exit ${run.code}`}`);
    } catch (error) {
      seen.push(`${candidate}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  throw new Error(
    `Home Assistant ${HOME_ASSISTANT_VERSION} needs Python 3.11 to run the integration tests, and none was found ` +
      `(${seen.join("; ")}). Install python3.11 (with its venv module), or point REWARD_FACTS_HA_PYTHON at one.`,
  );
}

function pipEnv(): NodeJS.ProcessEnv {
  // A PYTHONPATH or an active virtualenv from the caller's shell would leak into the cached venv.
  const { PYTHONPATH: _path, VIRTUAL_ENV: _venv, PYTHONHOME: _home, ...env } = process.env;
  return { ...env, PIP_NO_INPUT: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" };
}

function installError(what: string, logPath: string, output: string): Error {
  const tail = output ? `\n${tailLines(output, 25)}` : "";
  return new Error(`Home Assistant ${HOME_ASSISTANT_VERSION} install: ${what} (full log: ${logPath})${tail}`);
}

function log(message: string): void {
  process.stderr.write(`[home-assistant] ${message}\n`);
}
