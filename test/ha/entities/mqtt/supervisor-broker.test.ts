import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { SupervisorServiceError } from "../../../../src/ha/entities/mqtt/supervisor-broker.js";
import { supervisorBroker } from "../../../../src/ha/index.js";
import { freeLoopbackPort } from "../../../support/free-port.js";

// The add-on's broker lookup against the Supervisor's services API as the Supervisor serves it
// (GET /services/mqtt with the add-on's token): a loopback HTTP server stands in for the
// Supervisor, which exists only inside Home Assistant OS.

const TOKEN = "supervisor-token-that-must-never-show";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A Supervisor at a loopback URL that answers each request with `answer`. */
async function supervisor(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  server = createServer(answer);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("no port");
  return { url: `http://127.0.0.1:${address.port}`, token: TOKEN };
}

function json(status: number, body: unknown) {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

describe("the Supervisor's MQTT service", () => {
  it("gives the broker the Supervisor knows, asked with the add-on's token", async () => {
    const asked: Array<{ path: string | undefined; authorization: string | undefined }> = [];
    const access = await supervisor((request, response) => {
      asked.push({ path: request.url, authorization: request.headers.authorization });
      json(200, {
        result: "ok",
        data: { host: "core-mosquitto", port: 1883, ssl: false, username: "addons", password: "pw" },
      })(request, response);
    });
    expect(await supervisorBroker(access)).toEqual({
      url: "mqtt://core-mosquitto:1883",
      username: "addons",
      password: "pw",
    });
    expect(asked).toEqual([{ path: "/services/mqtt", authorization: `Bearer ${TOKEN}` }]);
  });

  it("says mqtts for a broker over TLS, and no credentials when it gives none", async () => {
    const access = await supervisor(json(200, { data: { host: "broker.local", port: 8883, ssl: true } }));
    expect(await supervisorBroker(access)).toEqual({
      url: "mqtts://broker.local:8883",
      username: undefined,
      password: undefined,
    });
  });

  it("is null when no broker is installed (the Supervisor answers 400)", async () => {
    const access = await supervisor(json(400, { result: "error", message: "No mqtt service" }));
    expect(await supervisorBroker(access)).toBeNull();
  });

  it.each([
    ["another status", json(500, { result: "error" }), "the Supervisor answered 500 for the MQTT service"],
    [
      "a service without a host",
      json(200, { data: { port: 1883 } }),
      "the Supervisor's MQTT service has no host",
    ],
    ["an answer that is no JSON", json(200, "<html>"), "the Supervisor's MQTT service answered no JSON"],
  ])("fails with a SupervisorServiceError on %s", async (_case, answer, message) => {
    const access = await supervisor(answer);
    const error = await supervisorBroker(access).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SupervisorServiceError);
    expect((error as Error).message).toBe(message);
  });

  it("fails with a SupervisorServiceError that names no token when the Supervisor cannot be reached", async () => {
    const access = { url: `http://127.0.0.1:${await freeLoopbackPort()}`, token: TOKEN };
    const error = await supervisorBroker(access).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(SupervisorServiceError);
    expect((error as Error).message).toMatch(/^the Supervisor cannot be reached: /);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it("gives up, with the signal's reason, when a stop comes while the Supervisor is silent", async () => {
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => {
      asked = resolve;
    });
    // Takes the request and never answers it.
    const access = await supervisor(() => asked());
    const stop = new AbortController();
    const lookup = supervisorBroker(access, stop.signal).catch((reason: unknown) => reason);
    await askedOnce;
    const reason = new Error("stopping");
    stop.abort(reason);
    expect(await lookup).toBe(reason);
  });
});
