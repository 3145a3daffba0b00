import { spawn } from "node:child_process";
import { appendFile } from "node:fs/promises";
import { dieWithParent } from "./die-with-parent.js";
import { enterRoot } from "./enter-root.js";

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

export interface RunOptions {
  timeoutMs: number;
  /** Output (stdout and stderr, interleaved) is appended here as well, for a post-mortem. */
  logFile?: string;
  env?: NodeJS.ProcessEnv;
  /** A host Python that launches the command so that it dies with this process (die-with-parent.ts). */
  launcher?: string;
  /** Runs the command inside this root (host path; enter-root.ts); needs `launcher`. */
  root?: string | undefined;
  /** The working directory, as the command sees it (inside the root if there is one). */
  cwd?: string | undefined;
}

/** The command line that runs `command` as `options` ask: inside a root, dying with this process. */
export function launchLine(
  command: string,
  args: readonly string[],
  options: Pick<RunOptions, "launcher" | "root" | "cwd">,
): { command: string; args: string[] } {
  let line = { command, args: [...args] };
  if (options.root) {
    if (!options.launcher)
      throw new Error(`running ${command} inside ${options.root} needs a launcher Python`);
    line = enterRoot(options.launcher, options.root, options.cwd ?? "/", line.command, line.args);
  }
  return options.launcher ? dieWithParent(options.launcher, line.command, line.args) : line;
}

/**
 * Runs a command to completion and resolves with its exit status and output; only a failure to
 * start at all (ENOENT…) rejects, so callers decide what a non-zero exit means.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const launched = launchLine(command, args, options);
    const child = spawn(launched.command, launched.args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: options.env ?? process.env,
      // Inside a root, the launcher changes directory after entering it.
      cwd: options.root ? undefined : options.cwd,
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      let output = Buffer.concat(chunks).toString("utf8");
      if (timedOut) output += `\n[killed after ${Math.round(options.timeoutMs / 1000)} s]\n`;
      const logged = options.logFile
        ? appendFile(options.logFile, `$ ${[command, ...args].join(" ")}\n${output}\n`)
        : Promise.resolve();
      logged.then(
        () => resolve({ code, signal, output }),
        () => resolve({ code, signal, output }),
      );
    });
  });
}

/** The last lines of a text, to put in an error message without drowning it. */
export function tailLines(text: string, count: number): string {
  return text.trimEnd().split("\n").slice(-count).join("\n");
}
