import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { addonPage } from "../../../../src/ha/entities/mqtt/addon-page.js";
import { freeLoopbackPort } from "../../../support/free-port.js";

// The add-on's page, from the Supervisor's /addons/self/info (a loopback stand-in, as in
// supervisor-broker.test.ts): the link of the devices' page.

const TOKEN = "supervisor-token-that-must-never-show";
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function supervisor(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  server = createServer(answer);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no port");
  return { url: `http://127.0.0.1:${address.port}`, token: TOKEN };
}

describe("the add-on's page", () => {
  it("is the add-on's info page under the slug the Supervisor gives, asked with the add-on's token", async () => {
    const asked: Array<[string | undefined, string | undefined]> = [];
    const access = await supervisor((request, response) => {
      asked.push([request.url, request.headers.authorization]);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ result: "ok", data: { slug: "a0d7b954_reward_facts", version: "0.2.0" } }),
      );
    });
    expect(await addonPage(access)).toBe("homeassistant://hassio/addon/a0d7b954_reward_facts/info");
    expect(asked).toEqual([["/addons/self/info", `Bearer ${TOKEN}`]]);
  });

  it.each([
    ["an error status", 403, JSON.stringify({ result: "error" })],
    ["no JSON", 200, "<html>"],
    ["no slug", 200, JSON.stringify({ data: {} })],
    ["a slug that is no slug", 200, JSON.stringify({ data: { slug: "../x/y" } })],
  ])("is none on %s", async (_case, status, body) => {
    const access = await supervisor((_request, response) => {
      response.writeHead(status);
      response.end(body);
    });
    expect(await addonPage(access)).toBeUndefined();
  });

  it("is none when the Supervisor cannot be reached", async () => {
    expect(
      await addonPage({ url: `http://127.0.0.1:${await freeLoopbackPort()}`, token: TOKEN }),
    ).toBeUndefined();
  });
});
