import { execFileSync } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, request } from "../../src/http/undici.js";

// The narrow undici entry: the same request() the package exports, for what the bridge asks of it.

interface Seen {
  method: string | undefined;
  url: string | undefined;
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

async function bodyOf(message: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of message) text += String(chunk);
  return text;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ method: req.method, url: req.url, body: await bodyOf(req) });
    res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/plain" });
    res.end(`answer to ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("request() of the narrow undici entry", () => {
  it("sends a GET with the path and query through the given agent", async () => {
    const agent = new Agent({ connectTimeout: 1_000 });
    try {
      const response = await request(`${base}/api/states?x=1`, { dispatcher: agent, headers: { a: "b" } });
      expect(response.statusCode).toBe(200);
      expect(await response.body.text()).toBe("answer to GET /api/states?x=1");
    } finally {
      await agent.close();
    }
  });

  it("sends the method and body it is given, and a PUT when only a body is", async () => {
    const posted = await request(`${base}/post`, { method: "POST", body: "{}" });
    await posted.body.dump();
    const put = await request(new URL(`${base}/put`), { body: "x" });
    await put.body.dump();
    expect(seen.slice(-2)).toEqual([
      { method: "POST", url: "/post", body: "{}" },
      { method: "PUT", url: "/put", body: "x" },
    ]);
  });

  it("hands back the status of an error answer rather than throwing", async () => {
    const response = await request(`${base}/missing`);
    await response.body.dump();
    expect(response.statusCode).toBe(404);
  });

  it("loads neither undici's index nor Node's own copy of undici", () => {
    // A fresh process: this one has loaded undici's index already (vitest, the test harness).
    const module = fileURLToPath(new URL("../../src/http/undici.ts", import.meta.url));
    const script =
      `await import(${JSON.stringify(module)});` +
      "const loaded = Object.keys(require.cache ?? {});" +
      'console.log(JSON.stringify({ index: loaded.some((f) => f.endsWith("undici/index.js")),' +
      ' nodeUndici: process.moduleLoadList.some((m) => m.includes("deps/undici")) }));';
    const out = execFileSync(
      process.execPath,
      ["--import", "tsx", "--input-type=commonjs", "-e", `(async () => { ${script} })()`],
      {
        encoding: "utf8",
      },
    );
    expect(JSON.parse(out)).toEqual({ index: false, nodeUndici: false });
  });
});
