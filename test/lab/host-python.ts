import type { PythonNeed } from "./home-assistant-versions.js";
import { runCommand, tailLines } from "./run-command.js";

export interface HostPython {
  /** The interpreter itself, not a version manager's shim (pyenv) that would sit between us and it. */
  path: string;
  version: string;
}

export interface PythonSearch {
  found: HostPython | undefined;
  /** What each candidate that did not fit turned out to be, for an error message. */
  tried: string[];
}

const probe = "import sys; print('.'.join(map(str, sys.version_info[:3])), sys.executable, sep='\\n')";

/** The first of `candidates` (names on PATH or paths) that runs and satisfies `need`, if any. */
export async function findHostPython(
  candidates: readonly string[],
  need?: PythonNeed,
): Promise<PythonSearch> {
  const tried: string[] = [];
  for (const candidate of candidates) {
    try {
      const run = await runCommand(candidate, ["-c", probe], { timeoutMs: 30_000 });
      const [version = "", executable = ""] = run.output.trim().split("\n");
      if (run.code === 0 && executable && (!need || satisfies(version, need)))
        return { found: { path: executable, version }, tried };
      tried.push(
        `${candidate}: ${run.code === 0 ? version : tailLines(run.output, 1) || `exit ${run.code}`}`,
      );
    } catch (error) {
      tried.push(`${candidate}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  return { found: undefined, tried };
}

export function satisfies(version: string, need: PythonNeed): boolean {
  const [major = 0, minor = 0, micro = 0] = version.split(".").map((part) => Number.parseInt(part, 10));
  const [lowMajor, lowMinor, lowMicro] = need.atLeast;
  const [highMajor, highMinor] = need.below;
  const atLeast =
    major !== lowMajor ? major > lowMajor : minor !== lowMinor ? minor > lowMinor : micro >= lowMicro;
  const below = major !== highMajor ? major < highMajor : minor < highMinor;
  return atLeast && below;
}

/** `>= 3.14.2, < 3.15`, for messages. */
export function describeNeed(need: PythonNeed): string {
  return `>= ${need.atLeast.join(".")}, < ${need.below.join(".")}`;
}
