// Node's own modules that the bridge's packages require when they load, though the bridge never
// uses what they are required for: in the bundle, each gets a stand-in, so that Node does not load
// it (its JavaScript, its native parts, the pages of the node binary they touch) for nothing.
// Measured against Home Assistant over REST with 3 children, steady (scratch runs of 2026-11-26):
// anonymous RSS 21.9 → 19.7 MiB and file-backed 43.8 → 42.5 MiB on Node 24, anonymous 14.3 → 13.9
// MiB on Node 20. A test runs the bundle and reads which of Node's modules it loaded.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * What stands in for a module, and for whom: only requires from these packages are replaced, so
 * that a package added later, or the bridge's own code, still gets the real module.
 */
interface StandIn {
  /** The packages (folders under node_modules) whose require of the module gets the stand-in. */
  packages: readonly string[];
  /** The stand-in, a CommonJS module. */
  contents: string;
}

/** The real module, loaded on first use of any of its members. */
const loadedOnFirstUse = (name: string) =>
  `let real; const load = () => (real ??= require("node:${name}"));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });`;

const STAND_INS: Record<string, StandIn> = {
  // undici's HTTP/2 client: taken only with `allowH2`, which the bridge never sets (the API and Home
  // Assistant are read over HTTP/1.1). Node's http2 also loads tls. undici falls back by itself to
  // HTTP/1.1 alone when the require throws, as on a Node built without http2.
  http2: {
    packages: ["undici"],
    contents: `throw new Error("node:http2 is left out of the bridge's bundle (HTTP/1.1 only)");`,
  },
  // pino runs transports in worker threads, and it and pino-pretty ask whether they run in one;
  // write-file-atomic asks for the thread's id; undici marks its web objects as not to be sent to
  // another thread (markAsUncloneable, left out: it does without on Nodes that lack it). The bridge
  // writes its log to a stream of its own main thread and starts no worker: these are the main
  // thread's answers, and a worker cannot be started.
  worker_threads: {
    packages: [
      "pino",
      "pino-abstract-transport",
      "pino-pretty",
      "thread-stream",
      "undici",
      "write-file-atomic",
    ],
    contents: `module.exports = {
  isMainThread: true, threadId: 0, parentPort: null, workerData: null,
  Worker: class Worker { constructor() { throw new Error("no worker threads in the bridge's bundle"); } },
};`,
  },
  // ws: compression is off (src/ha/connection.ts), and https and tls serve a wss:// address only.
  zlib: { packages: ["ws"], contents: loadedOnFirstUse("zlib") },
  // ws's handshake digest and frame masks, write-file-atomic's temporary names: without OpenSSL
  // (node-crypto.ts).
  crypto: {
    packages: ["ws", "write-file-atomic"],
    contents: `module.exports = require(${JSON.stringify(join(here, "./node-crypto.ts"))});`,
  },
  https: { packages: ["ws"], contents: loadedOnFirstUse("https") },
  // undici, sonic-boom and thread-stream (pino's) only call assert(value, message), to check their
  // own invariants: a passing check needs nothing of Node's assert, whose module loads its diff and
  // error-source machinery; a failing one, or any other member, loads the real module and throws
  // its error.
  assert: {
    packages: ["undici", "sonic-boom", "thread-stream"],
    contents: `let real; const load = () => (real ??= require("node:assert"));
function assert(value, message) { if (!value) load()(value, message); }
module.exports = new Proxy(assert, { get: (target, key) => key in target ? target[key] : load()[key] });`,
  },
  // colorette asks, as it loads, whether standard output is a terminal, to colour by default;
  // pino-pretty's lines are never coloured (src/log/logger.ts sets colorize: false), so the answer
  // is no, and Node's tty module (with its stream and colour support) stays out.
  tty: { packages: ["colorette"], contents: "module.exports = { isatty: () => false };" },
  tls: { packages: ["ws"], contents: loadedOnFirstUse("tls") },
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
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: STAND_INS[args.path]?.contents ?? "",
        loader: "js",
        resolveDir: here,
      }));
    },
  };
}
