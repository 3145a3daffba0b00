import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:https";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { COMMONJS_GLOBALS } from "../../src/build/build-bridge.js";
import { bundleStandIns, packageOfFile, SHAPES } from "../../src/build/bundle-stand-ins.js";

// The stand-ins keep out of the bundle's process what its packages require for what the bridge never
// does (the ledger, src/build/README.md): undici's HTTP/2, and ws's TLS on a ws:// link. Here, on small bundles of the packages as the bridge uses them, each against a local server:
// the same bundle without the stand-ins loads every one of those modules, so the test holds each
// stand-in; a Home Assistant behind TLS still gets the real modules the moment the bridge connects.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

let dir: string;
let tlsServer: ReturnType<typeof createServer>;
let tlsPort: number;
let plainServer: ReturnType<typeof createHttpServer>;
let plainPort: number;

/** Answers every message with `pong <message>`. */
const echo = (sockets: WebSocketServer) =>
  sockets.on("connection", (socket) => socket.on("message", (data) => socket.send(`pong ${String(data)}`)));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rf-stand-ins-"));
  // A certificate of its own for 127.0.0.1, as a Home Assistant behind TLS on a home network has.
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  const subject = ["-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert];
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject]);
  tlsServer = createServer({ key: await readFile(key), cert: await readFile(cert) });
  echo(new WebSocketServer({ server: tlsServer }));
  await new Promise<void>((done) => tlsServer.listen(0, "127.0.0.1", done));
  tlsPort = (tlsServer.address() as AddressInfo).port;
  // Home Assistant as most have it: plain HTTP and ws:// on the home network.
  plainServer = createHttpServer((_, response) => response.end("{}"));
  echo(new WebSocketServer({ server: plainServer }));
  await new Promise<void>((done) => plainServer.listen(0, "127.0.0.1", done));
  plainPort = (plainServer.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  tlsServer?.close();
  plainServer?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The modules the stand-ins keep out (written out: a stand-in taken away must show here). */
const KEPT_OUT = ["http2", "https", "tls"];

/** Which of KEPT_OUT the script's process had loaded, as it wrote its answer. */
const LOADED = `const standIns = ${JSON.stringify(KEPT_OUT)};
const loaded = () => standIns.filter((name) => process.moduleLoadList.includes("NativeModule " + name));`;

describe("the bundle's stand-ins for Node's modules", () => {
  it("name the package a bundled file comes from", () => {
    expect(packageOfFile("/x/node_modules/ws/lib/websocket.js")).toBe("ws");
    expect(packageOfFile("/x/node_modules/a/node_modules/@scope/b/index.js")).toBe("@scope/b");
    expect(packageOfFile("/x/src/ha/link/connection.ts")).toBeUndefined();
  });

  it("throw, for a module left out, the error Node throws for a built-in it lacks", () => {
    const nodeError = (() => {
      try {
        createRequire(import.meta.url)("node:no-such-module");
      } catch (error) {
        return error as NodeJS.ErrnoException;
      }
    })();
    const standInError = (() => {
      try {
        new Function("module", "require", SHAPES.missingBuiltIn("no-such-module"))({}, () => undefined);
      } catch (error) {
        return error as NodeJS.ErrnoException;
      }
    })();
    expect(nodeError?.code).toBe("ERR_UNKNOWN_BUILTIN_MODULE");
    expect({ name: standInError?.name, code: standInError?.code, message: standInError?.message }).toEqual({
      name: nodeError?.name,
      code: nodeError?.code,
      message: nodeError?.message,
    });
  });

  it("leave undici's HTTP/2 and ws's TLS unloaded on http:// and ws://, which a bundle without them loads", async () => {
    // As the bridge asks: undici's narrow entry (src/http/undici.ts) and ws without compression.
    const entry = `import { request } from ${JSON.stringify(join(repoRoot, "src/http/undici.ts"))};
import WebSocket from "ws";
${LOADED}
const answer = await request("http://127.0.0.1:${plainPort}/");
const body = await answer.body.text();
const socket = new WebSocket("ws://127.0.0.1:${plainPort}/", { perMessageDeflate: false });
socket.on("open", () => socket.send("ping"));
socket.on("message", (data) => {
  process.stdout.write(JSON.stringify({ body, answer: String(data), loaded: loaded() }));
  socket.close();
});
socket.on("error", (error) => { process.stderr.write(String(error)); process.exitCode = 1; });`;
    const withStandIns = await runBundled(entry, "plain.mjs", [bundleStandIns()]);
    expect(withStandIns).toEqual({ body: "{}", answer: "pong ping", loaded: [] });
    const without = await runBundled(entry, "plain-without.mjs", []);
    expect(without).toEqual({ body: "{}", answer: "pong ping", loaded: KEPT_OUT });
  }, 60_000);

  it("load ws's TLS when it opens a wss:// link, and not before", async () => {
    const entry = `import WebSocket from "ws";
${LOADED}
const before = loaded();
const socket = new WebSocket("wss://127.0.0.1:${tlsPort}/", { rejectUnauthorized: false });
socket.on("open", () => socket.send("ping"));
socket.on("message", (data) => {
  process.stdout.write(JSON.stringify({ before, answer: String(data), after: loaded() }));
  socket.close();
});
socket.on("error", (error) => { process.stderr.write(String(error)); process.exitCode = 1; });`;
    expect(await runBundled(entry, "client.mjs", [bundleStandIns()])).toEqual({
      before: [],
      answer: "pong ping",
      after: ["https", "tls"],
    });
  }, 60_000);
});

/**
 * `entry` bundled as the bridge's build bundles it (ES module, with these plugins) into the test's
 * folder, then run by a fresh node; what it wrote, as JSON.
 */
async function runBundled(entry: string, name: string, plugins: Plugin[]): Promise<unknown> {
  const out = join(dir, name);
  await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: "ts" },
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    banner: { js: COMMONJS_GLOBALS },
    plugins,
    logLevel: "silent",
  });
  const { stdout } = await run(process.execPath, [out], { cwd: dir, timeout: 20_000 });
  return JSON.parse(stdout);
}
