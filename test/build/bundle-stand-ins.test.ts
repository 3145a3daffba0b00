import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { COMMONJS_GLOBALS } from "../../src/build/build-bridge.js";
import { bundleStandIns, packageOfFile } from "../../src/build/bundle-stand-ins.js";

// The stand-ins keep ws's TLS out of a bridge that reaches Home Assistant over ws:// (the bundle's
// own test, test/addon/built-bridge.test.ts, checks that); here, a bridge whose Home Assistant is
// on https still gets the real module the moment it connects.

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

let dir: string;
let server: ReturnType<typeof createServer>;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rf-stand-ins-"));
  // A certificate of its own for 127.0.0.1, as a Home Assistant behind TLS on a home network has.
  const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
  const subject = ["-subj", "/CN=127.0.0.1", "-keyout", key, "-out", cert];
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject]);
  server = createServer({ key: await readFile(key), cert: await readFile(cert) });
  const sockets = new WebSocketServer({ server });
  sockets.on("connection", (socket) => socket.on("message", (data) => socket.send(`pong ${String(data)}`)));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  port = (server.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the bundle's stand-ins for Node's modules", () => {
  it("name the package a bundled file comes from", () => {
    expect(packageOfFile("/x/node_modules/ws/lib/websocket.js")).toBe("ws");
    expect(packageOfFile("/x/node_modules/a/node_modules/@scope/b/index.js")).toBe("@scope/b");
    expect(packageOfFile("/x/src/ha/connection.ts")).toBeUndefined();
  });

  it("load ws's TLS when it opens a wss:// link, and not before", async () => {
    const entry = `import WebSocket from "ws";
const loaded = () => process.moduleLoadList.includes("NativeModule tls");
const before = loaded();
const socket = new WebSocket("wss://127.0.0.1:${port}/", { rejectUnauthorized: false });
socket.on("open", () => socket.send("ping"));
socket.on("message", (data) => {
  process.stdout.write(JSON.stringify({ before, answer: String(data), after: loaded() }));
  socket.close();
});
socket.on("error", (error) => { process.stderr.write(String(error)); process.exitCode = 1; });`;
    const out = await bundle(entry, "client.mjs");
    expect(await readFile(out, "utf8")).toContain('require("node:tls")');
    const { stdout } = await run(process.execPath, [out], { cwd: dir, timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ before: false, answer: "pong ping", after: true });
  }, 60_000);

  it("pass a package's passing check without Node's assert, and throw its error on a failing one", async () => {
    // sonic-boom (pino's destination) checks as it closes that its descriptor is a number.
    const entry = `import SonicBoom from "sonic-boom";
const loaded = () => process.moduleLoadList.includes("NativeModule assert");
const good = new SonicBoom({ dest: ${JSON.stringify(join(dir, "good.log"))}, sync: true });
good.write("a line\\n");
good.end();
const afterPass = loaded();
const bad = new SonicBoom({ dest: ${JSON.stringify(join(dir, "bad.log"))}, sync: true });
bad.fd = "not a descriptor";
let error;
try { bad.end(); } catch (e) { error = { name: e.name, code: e.code, message: e.message }; }
process.stdout.write(JSON.stringify({ afterPass, error, afterFail: loaded() }));`;
    const out = await bundle(entry, "boom.mjs");
    const { stdout } = await run(process.execPath, [out], { cwd: dir, timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({
      afterPass: false,
      error: {
        name: "AssertionError",
        code: "ERR_ASSERTION",
        message: "sonic.fd must be a number, got string",
      },
      afterFail: true,
    });
    expect(await readFile(join(dir, "good.log"), "utf8")).toBe("a line\n");
  }, 60_000);
});

/** `entry` bundled as the bridge's build bundles (ES module, the stand-ins), into the test's folder. */
async function bundle(entry: string, name: string): Promise<string> {
  const out = join(dir, name);
  await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: "js" },
    outfile: out,
    bundle: true,
    format: "esm",
    platform: "node",
    banner: { js: COMMONJS_GLOBALS },
    plugins: [bundleStandIns()],
    logLevel: "silent",
  });
  return out;
}
