// Node's own modules that the bridge's packages require as they load, for what the bridge never
// does: in the bundle, each gets a stand-in, so that Node does not load it for nothing. What each
// saves, the test that holds it and what to check on an upgrade: the ledger, src/build/README.md.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * A stand-in's two shapes, so that a package meets either Node's own module or what Node itself
 * gives when it lacks one: never answers of the bridge's making.
 */
export const SHAPES = {
  /** The real module, loaded at the first read of any of its members. */
  loadedOnFirstUse: (name: string) =>
    `let real; const load = () => (real ??= require("node:${name}"));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`,
  /**
   * What Node throws for a built-in module it was built without, code and message alike: the
   * package's own fallback for such a Node runs (undici's feature detection reads the code).
   */
  missingBuiltIn: (name: string) =>
    `const error = new Error("No such built-in module: node:${name}");
error.code = "ERR_UNKNOWN_BUILTIN_MODULE";
throw error;`,
} as const;

/**
 * What stands in for a module, and for whom: only requires from these packages are replaced, so
 * that a package added later, or the bridge's own code, still gets the real module.
 */
interface StandIn {
  /** The packages (folders under node_modules) whose require of the module gets the stand-in. */
  packages: readonly string[];
  shape: keyof typeof SHAPES;
}

export const STAND_INS: Readonly<Record<string, StandIn>> = {
  // undici's HTTP/2 client, taken only with `allowH2`, which the bridge never sets. undici goes on
  // with HTTP/1.1 alone when the require throws, as on a Node built without http2.
  http2: { packages: ["undici"], shape: "missingBuiltIn" },
  // ws: https and tls serve a wss:// address only, and most Home Assistants are on http://.
  https: { packages: ["ws"], shape: "loadedOnFirstUse" },
  tls: { packages: ["ws"], shape: "loadedOnFirstUse" },
};

const NAMESPACE = "bundle-stand-in";

/** The package a file under node_modules belongs to (`@scope/name` or `name`), if any. */
export function packageOfFile(path: string): string | undefined {
  const tail = path.split(/[\\/]node_modules[\\/]/).at(-1);
  if (tail === undefined || tail === path) return undefined;
  const parts = tail.split(/[\\/]/);
  return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** The esbuild plugin that puts the stand-ins in place of Node's modules (see STAND_INS). */
export function bundleStandIns(): Plugin {
  const names = Object.keys(STAND_INS).join("|");
  return {
    name: "bundle-stand-ins",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, (args) => {
        // The stand-in's own require of the real module.
        if (args.namespace === NAMESPACE) return { path: args.path, external: true };
        const name = args.path.replace(/^node:/, "");
        const owner = packageOfFile(args.importer);
        if (!owner || !STAND_INS[name]?.packages.includes(owner)) return undefined;
        return { path: name, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const standIn = STAND_INS[args.path];
        return {
          contents: standIn ? SHAPES[standIn.shape](args.path) : "",
          loader: "js",
          resolveDir: here,
        };
      });
    },
  };
}
