import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Metafile } from "esbuild";
import { buildBridge } from "../../src/build/build-bridge.js";
import { dieWithParentQuickly } from "../lab/die-with-parent.js";
import type { BridgeLaunch } from "./bridge-process.js";

/**
 * The bridge as the add-on image holds it: `npm run build`'s bundle, with a package.json saying
 * its files are ES modules, in a folder with no node_modules on its way up. Whatever it runs must
 * then come from the bundle, as in the image, where the final stage installs no package.
 */
export interface BuiltBridge {
  /** The folder standing for the image's /app. */
  root: string;
  /** `node dist/src/main.js`, dying with the test process. */
  launch: BridgeLaunch;
  healthCheck: string;
  /** esbuild's account of the build: which source went into which file. */
  metafile: Metafile;
  remove(): Promise<void>;
}

export async function buildBridgeApart(): Promise<BuiltBridge> {
  const root = await mkdtemp(join(tmpdir(), "rf-built-bridge-"));
  for (let dir = root; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules")))
      throw new Error(`${dir} holds a node_modules: the bundle in ${root} could load packages from it`);
  }
  const metafile = await buildBridge(join(root, "dist/src"));
  await writeFile(join(root, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  return {
    root,
    launch: dieWithParentQuickly(process.execPath, [join(root, "dist/src/main.js")]),
    healthCheck: join(root, "dist/src/health/check.js"),
    metafile,
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
