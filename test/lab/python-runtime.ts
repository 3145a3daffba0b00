import { type DebianRootSpec, debianRootSupport } from "./debian-root.js";
import type { InstallRecipe } from "./home-assistant-versions.js";
import { describeNeed, findHostPython, type HostPython } from "./host-python.js";

/** Where a release's Python comes from: this machine, or a Debian root built for it. */
export type PythonRuntime =
  | { kind: "host"; python: HostPython }
  | {
      kind: "debian-root";
      spec: DebianRootSpec;
      mirror: string;
      /** The host's own Python, which launches commands into the root and holds the install lock. */
      launcher: HostPython;
    };

/** What an install depends on besides its pins: part of the cache folder's name. */
export function runtimeKey(runtime: PythonRuntime): string {
  return runtime.kind === "host"
    ? "host-python"
    : `debian-${runtime.spec.suite}-${runtime.spec.packages.join("+")}`;
}

/**
 * In order: the Python `$<recipe.pythonVariable>` names; a Debian root, where the release wants
 * one and this machine can build it; a fitting Python on PATH. Otherwise an error that says
 * what is missing and how to provide it: the suites fail, they do not skip.
 */
export async function choosePythonRuntime(recipe: InstallRecipe): Promise<PythonRuntime> {
  const need = describeNeed(recipe.python);
  const override = process.env[recipe.pythonVariable];
  if (override) {
    const search = await findHostPython([override], recipe.python);
    if (search.found) return { kind: "host", python: search.found };
    throw new Error(
      `Home Assistant ${recipe.version} needs Python ${need}; ${recipe.pythonVariable} names ` +
        `${search.tried.join("; ")}.`,
    );
  }
  const missing: string[] = [];
  if (recipe.debianRoot) {
    const support = await debianRootSupport();
    if ("mirror" in support) {
      const host = await findHostPython(["python3"]);
      if (host.found)
        return { kind: "debian-root", spec: recipe.debianRoot, mirror: support.mirror, launcher: host.found };
      missing.push(`a python3 on this machine to enter a Debian root (${host.tried.join("; ")})`);
    } else {
      missing.push(`${support.missing} to build a Debian ${recipe.debianRoot.suite} root that has it`);
    }
  }
  const search = await findHostPython(recipe.pythonCandidates, recipe.python);
  if (search.found) return { kind: "host", python: search.found };
  missing.push(`a Python ${need} on PATH (${search.tried.join("; ")})`);
  throw new Error(
    `Home Assistant ${recipe.version} needs Python ${need} to run the integration tests, and this machine ` +
      `has none: missing ${missing.join(", or ")}. Install one (with its venv module), or point ` +
      `${recipe.pythonVariable} at one.`,
  );
}
