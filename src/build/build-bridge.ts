// `npm run build`: the bridge as `npm start` and the add-on image run it, in dist/src.
//
// src/main.ts and the health check, each bundled by esbuild with what it imports (the packages
// too) into a few ES modules: main.js, health/check.js and the chunks they share. So the image's
// final stage installs no package (no node_modules: nothing there that the bridge does not run),
// and a start reads a few files instead of some two hundred. The MQTT publisher is a chunk of its
// own, loaded only when MQTT is configured, as the dynamic import in src/ha/index.ts asks. Type
// checking stays with `npm run typecheck`: esbuild only strips the types. What each of these
// choices saves, and the test that holds it: the ledger, src/build/README.md.
import { rm } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Metafile } from "esbuild";
import { EXIT_FAILURE, EXIT_OK } from "../exit-codes.js";
import { bundleStandIns } from "./bundle-stand-ins.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Where `npm run build` writes, and where `npm start` and the Dockerfile's CMD look. */
const DEFAULT_OUTDIR = join(repoRoot, "dist/src");

/** The bundle's entry points, named as dist/src holds them (`node dist/src/main.js`). */
const ENTRY_POINTS = {
  main: join(repoRoot, "src/main.ts"),
  "health/check": join(repoRoot, "src/health/check.ts"),
};

// Some bundled packages are CommonJS and use what Node gives CommonJS files only: require() for
// Node's own modules, __filename (write-file-atomic names its temporary files with it) and
// __dirname (where pino would look for its transports' workers, which the bridge never starts).
export const COMMONJS_GLOBALS = [
  'import { createRequire as bundleCreateRequire } from "node:module";',
  'import { fileURLToPath as bundleFileURLToPath } from "node:url";',
  "const require = bundleCreateRequire(import.meta.url);",
  "const __filename = bundleFileURLToPath(import.meta.url);",
  'const __dirname = bundleFileURLToPath(new URL(".", import.meta.url));',
].join("\n");

/**
 * Writes the bundle to `outdir` (emptied first: no file of an earlier build stays beside it) and
 * returns esbuild's account of it: which source went into which file.
 */
export async function buildBridge(outdir: string = DEFAULT_OUTDIR): Promise<Metafile> {
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    // The account's paths are relative to it: `src/…`, `node_modules/<package>/…`.
    absWorkingDir: repoRoot,
    entryPoints: ENTRY_POINTS,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: "chunks/[name]-[hash]",
    banner: { js: COMMONJS_GLOBALS },
    // Whitespace and syntax only: names stay, so a stack trace in a user's log still says where.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: "warning",
    // Node's modules that packages require for what the bridge never does (bundle-stand-ins.ts).
    plugins: [bundleStandIns()],
  });
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  buildBridge().then(
    (metafile) => {
      const files = Object.keys(metafile.outputs).length;
      process.stdout.write(`${files} files written to ${DEFAULT_OUTDIR}\n`);
      process.exitCode = EXIT_OK;
    },
    (error: unknown) => {
      process.stderr.write(`npm run build: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
}
