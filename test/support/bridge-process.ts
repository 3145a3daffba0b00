import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";

const main = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** The program and arguments that run the bridge. */
export interface BridgeLaunch {
  command: string;
  args: string[];
}

/**
 * The TypeScript sources through tsx, on this process's Node: what the suites run. The bridge dies
 * with the test process, so that a worker killed at its time limit leaves no bridge polling behind.
 */
export const bridgeFromSources: BridgeLaunch = dieWithParentQuickly(process.execPath, [
  "--import",
  "tsx",
  main,
]);

/** The bridge as users run it: its own process, configured by the environment. */
export class BridgeProcess {
  readonly output: string[] = [];
  #child: ChildProcess | undefined;
  #exit: Promise<number | null> | undefined;

  /** `launch`: the sources by default; the bench gives the compiled bridge on a chosen Node. */
  constructor(
    readonly env: Record<string, string>,
    readonly launch: BridgeLaunch = bridgeFromSources,
  ) {}

  start(): this {
    const child = spawn(this.launch.command, this.launch.args, {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TZ: "Europe/Paris", ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding("utf8");
      stream?.on("data", (chunk: string) => this.output.push(...chunk.split("\n").filter(Boolean)));
    }
    this.#child = child;
    this.#exit = once(child, "exit").then(([code]) => code as number | null);
    return this;
  }

  /** The bridge's own pid (no shell; setpriv execs node); undefined before start(). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** SIGTERM, as the Supervisor stops an add-on; resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (!this.running) return this.#child?.exitCode ?? null;
    this.#child?.kill("SIGTERM");
    return this.#exit ?? null;
  }

  /** SIGKILL, as a crash or a power cut of the container would. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.#child?.kill("SIGKILL");
    await this.#exit;
  }

  exited(): Promise<number | null> {
    return this.#exit ?? Promise.resolve(null);
  }

  text(): string {
    return this.output.join("\n");
  }
}
