import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { buildDebianRoot, type InstallStep, unmountBelow } from "./debian-root.js";
import { acquireFileLock } from "./file-lock.js";
import {
  CURRENT_HOME_ASSISTANT_VERSION,
  type HomeAssistantVersion,
  type InstallRecipe,
  installRecipe,
} from "./home-assistant-versions.js";
import { checkedPythonVersion, installWheel } from "./home-assistant-wheel.js";
import type { HostPython } from "./host-python.js";
import { choosePythonRuntime, type PythonRuntime, runtimeKey } from "./python-runtime.js";
import { runCommand, tailLines } from "./run-command.js";

const installTimeoutMs = 15 * 60_000;
/** Another worker may be in the middle of a first install: wait for it rather than fail. */
const lockTimeoutMs = installTimeoutMs + 5 * 60_000;

export interface HomeAssistantInstall {
  version: HomeAssistantVersion;
  /** The `hass` entry point, as Home Assistant's side sees it (inside the root if there is one). */
  hassBin: string;
  /** A Python on this machine that launches hass (die-with-parent.ts, enter-root.ts). */
  launcher: string;
  /** Host path of the Debian root Home Assistant runs in; undefined when it runs on this machine. */
  root: string | undefined;
  /** Host folder for config dirs: inside the root when there is one, the only files HA sees. */
  configParent: string;
}

interface Marker {
  version: string;
  requirements: string[];
  constraints: string[];
  runtime: string;
  python: string;
}

const pending = new Map<HomeAssistantVersion, Promise<HomeAssistantInstall>>();

/**
 * Installs a Home Assistant release into a per-user cache, once per machine, and says where it
 * is. Safe to call from several processes at once. Rejects with a message a person can act on
 * when the machine cannot run it, so a suite depending on it fails instead of skipping.
 */
export function ensureHomeAssistant(
  version: HomeAssistantVersion = CURRENT_HOME_ASSISTANT_VERSION,
): Promise<HomeAssistantInstall> {
  let installed = pending.get(version);
  if (!installed) {
    installed = installOnce(installRecipe(version)).catch((error: unknown) => {
      pending.delete(version);
      throw error;
    });
    pending.set(version, installed);
  }
  return installed;
}

/** `$REWARD_FACTS_HA_CACHE`, else the XDG cache: outside the repo, so clones and CI caches share it. */
function homeAssistantCacheRoot(): string {
  return (
    process.env.REWARD_FACTS_HA_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "reward-facts-bridge")
  );
}

/**
 * One folder per release and set of pins (the runtime included): checkouts with different pins
 * (an older clone beside a newer one) each keep their own install instead of removing each
 * other's under a running Home Assistant.
 */
function cacheDir(recipe: InstallRecipe, runtime: PythonRuntime): string {
  const pins = createHash("sha256")
    .update(JSON.stringify([requirements(recipe), recipe.constraints, runtimeKey(runtime)]))
    .digest("hex")
    .slice(0, 8);
  return join(homeAssistantCacheRoot(), `homeassistant-${recipe.version}-${pins}`);
}

function requirements(recipe: InstallRecipe): string[] {
  return [`homeassistant==${recipe.version}`, ...recipe.requirements];
}

type Layout = ReturnType<typeof layout>;

/** Where things are: paths as Home Assistant's side sees them; `host()` maps them to this process's view. */
function layout(recipe: InstallRecipe, runtime: PythonRuntime) {
  const dir = cacheDir(recipe, runtime);
  const root = runtime.kind === "debian-root" ? join(dir, "root") : undefined;
  // In a root, the venv lives inside it: its scripts name their interpreter by its path in there.
  const home = root ? "/opt/homeassistant" : dir;
  const host = (path: string) => (root ? join(root, path) : path);
  return {
    dir,
    root,
    host,
    marker: join(dir, "installed.json"),
    log: join(dir, "install.log"),
    lock: join(dir, "install.lock"),
    venv: join(home, "venv"),
    python: join(home, "venv", "bin", "python"),
    hassBin: join(home, "venv", "bin", "hass"),
    downloads: join(home, "downloads"),
    constraints: join(home, "constraints.txt"),
    configParent: root ? join(root, "srv", "reward-facts-ha") : tmpdir(),
  };
}

async function installOnce(recipe: InstallRecipe): Promise<HomeAssistantInstall> {
  const runtime = await choosePythonRuntime(recipe);
  const paths = layout(recipe, runtime);
  const launcher = runtime.kind === "debian-root" ? runtime.launcher : runtime.python;
  const result: HomeAssistantInstall = {
    version: recipe.version,
    hassBin: paths.hassBin,
    launcher: launcher.path,
    root: paths.root,
    configParent: paths.configParent,
  };
  const ready = async () => {
    await mkdir(paths.configParent, { recursive: true });
    return result;
  };
  if (await isComplete(paths.marker, paths.host(paths.hassBin), recipe, runtime)) return ready();

  await mkdir(paths.dir, { recursive: true });
  const lock = await acquireFileLock(paths.lock, {
    python: launcher.path,
    timeoutMs: lockTimeoutMs,
    onWait: () => log(`waiting for another process installing Home Assistant into ${paths.dir}`),
  });
  try {
    // The lock holder before us may have finished the job.
    if (await isComplete(paths.marker, paths.host(paths.hassBin), recipe, runtime)) return ready();
    const started = Date.now();
    log(
      `installing Home Assistant ${recipe.version} into ${paths.dir} with ${describeRuntime(runtime)}, ` +
        "first run only (a few minutes)",
    );
    await install(recipe, runtime, paths, launcher.path).catch((error: unknown) => {
      if (error instanceof InstallError) throw error;
      throw installError(recipe, error instanceof Error ? error.message : String(error), paths.log, "");
    });
    log(`installed Home Assistant ${recipe.version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return ready();
  } finally {
    await lock.release();
  }
}

/** The install itself, under the lock; the marker, written last, is the proof it all succeeded. */
async function install(
  recipe: InstallRecipe,
  runtime: PythonRuntime,
  paths: Layout,
  launcher: string,
): Promise<void> {
  // No marker means nothing here can be trusted: a killed install leaves a half-built venv or root.
  await rm(paths.marker, { force: true });
  if (paths.root) {
    await unmountBelow(paths.root);
    await rm(paths.root, { recursive: true, force: true });
  } else {
    await rm(paths.venv, { recursive: true, force: true });
    await rm(paths.downloads, { recursive: true, force: true });
  }
  await writeFile(
    paths.log,
    `install of ${requirements(recipe).join(" ")} with ${describeRuntime(runtime)}\n`,
  );

  const deadline = Date.now() + installTimeoutMs;
  const step: InstallStep = async (what, command, args, options = {}) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw installError(recipe, `${what}: out of time`, paths.log, "");
    // Launched so that it dies with us: a pip left running by a killed worker would write into
    // the venv that the next install rebuilds.
    const run = await runCommand(command, args, {
      timeoutMs: remaining,
      logFile: paths.log,
      env: installEnv(),
      launcher,
      root: options.root,
    });
    if (run.code !== 0) {
      const failed = `${what} failed (exit ${run.code ?? run.signal})${options.hint ?? ""}`;
      throw installError(recipe, failed, paths.log, run.output);
    }
    return run.output;
  };
  // Steps on Home Assistant's side: inside the root when there is one.
  const inside: InstallStep = (what, command, args, options = {}) =>
    step(what, command, args, { ...options, root: paths.root });

  let python: HostPython;
  if (runtime.kind === "debian-root" && paths.root) {
    await buildDebianRoot(paths.root, runtime.spec, runtime.mirror, step);
    python = {
      path: runtime.spec.python,
      version: await checkedPythonVersion(recipe, runtime.spec.python, inside),
    };
  } else if (runtime.kind === "host") {
    python = runtime.python;
  } else {
    throw new Error("a Debian root runtime without a root folder");
  }
  await installWheel(recipe, python.path, paths, inside);

  const marker: Marker = {
    version: recipe.version,
    requirements: requirements(recipe),
    constraints: [...recipe.constraints],
    runtime: runtimeKey(runtime),
    python: python.version,
  };
  await writeFile(paths.marker, `${JSON.stringify(marker, null, 2)}\n`);
}

async function isComplete(
  markerPath: string,
  hassBin: string,
  recipe: InstallRecipe,
  runtime: PythonRuntime,
): Promise<boolean> {
  try {
    const marker = JSON.parse(await readFile(markerPath, "utf8")) as Partial<Marker>;
    // Changed pins mean a different install, even under the same folder.
    return (
      marker.version === recipe.version &&
      JSON.stringify(marker.requirements) === JSON.stringify(requirements(recipe)) &&
      JSON.stringify(marker.constraints) === JSON.stringify(recipe.constraints) &&
      marker.runtime === runtimeKey(runtime) &&
      existsSync(hassBin)
    );
  } catch {
    return false;
  }
}

function describeRuntime(runtime: PythonRuntime): string {
  return runtime.kind === "host"
    ? `Python ${runtime.python.version} (${runtime.python.path})`
    : `a Debian ${runtime.spec.suite} root (${runtime.spec.packages.join(", ")})`;
}

function installEnv(): NodeJS.ProcessEnv {
  // A PYTHONPATH or an active virtualenv from the caller's shell would leak into the cached venv.
  const { PYTHONPATH: _path, VIRTUAL_ENV: _venv, PYTHONHOME: _home, ...env } = process.env;
  return { ...env, PIP_NO_INPUT: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1", DEBIAN_FRONTEND: "noninteractive" };
}

/** A failed install, said once with the release, the log to read and the failing step's last words. */
class InstallError extends Error {
  override name = "InstallError";
}

function installError(recipe: InstallRecipe, what: string, logPath: string, output: string): InstallError {
  const tail = output ? `\n${tailLines(output, 25)}` : "";
  return new InstallError(`Home Assistant ${recipe.version} install: ${what} (full log: ${logPath})${tail}`);
}

function log(message: string): void {
  process.stderr.write(`[home-assistant] ${message}\n`);
}
