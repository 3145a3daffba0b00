import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimClock } from "./clock.js";
import { type FaultQueue, faultStatus, sendWithFault } from "./faults.js";
import { errorResponse, sendJson } from "./http-io.js";
import type { ServedRequest } from "./request-log.js";
import { type HandledCall, handleCall, type ServiceContext } from "./service.js";

export const HOST = "127.0.0.1";

export interface ServerParts {
  service: ServiceContext;
  faults: FaultQueue;
  clock: SimClock;
  record: (request: ServedRequest) => void;
}

/** The simulator over node:http, on the loopback interface only. */
export class SimServer {
  readonly port: number;
  readonly #server: Server;
  readonly #timers: Set<NodeJS.Timeout>;

  private constructor(server: Server, port: number, timers: Set<NodeJS.Timeout>) {
    this.#server = server;
    this.port = port;
    this.#timers = timers;
  }

  /** Listens on 127.0.0.1:port (0 picks a free port). */
  static async listen(parts: ServerParts, port: number): Promise<SimServer> {
    const timers = new Set<NodeJS.Timeout>();
    const server = createServer((req, res) => serve(parts, timers, req, res));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, HOST, () => {
        server.off("error", reject);
        resolve();
      });
    });
    return new SimServer(server, (server.address() as AddressInfo).port, timers);
  }

  /** Closes the connections that wait for a next request, as when the server's keep-alive runs out. */
  closeIdleConnections(): void {
    this.#server.closeIdleConnections();
  }

  /** Stops listening, cancels slow answers and drops open (keep-alive) connections. */
  async close(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }
}

function serve(
  parts: ServerParts,
  timers: Set<NodeJS.Timeout>,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  // The request body is never read; draining it keeps a keep-alive connection usable.
  req.resume();
  const at = parts.clock.now();
  const method = req.method ?? "GET";
  let call: HandledCall;
  try {
    call = handleCall(parts.service, {
      method,
      url: req.url ?? "/",
      authorization: req.headers.authorization,
    });
  } catch (error) {
    // A bug in the simulator must show as a 500 in the test that met it, not crash the runner.
    parts.record({ at, token: "unknown", base: undefined, method, path: req.url ?? "/", status: 500 });
    const detail = error instanceof Error ? error.message.replace(/rf_api_\S*/g, "[token]") : "?";
    sendJson(res, errorResponse(500, `simulator failure: ${detail}`));
    return;
  }
  const fault = call.admitted ? parts.faults.take(call.path.replace(/\?.*$/, "")) : undefined;
  const served: ServedRequest = {
    at,
    token: call.token,
    base: call.base,
    method,
    path: call.path,
    status: fault ? faultStatus(fault, call.response) : call.response.status,
    ...(fault ? { fault: fault.kind } : {}),
    ...(req.headers["user-agent"] ? { userAgent: req.headers["user-agent"] } : {}),
  };
  parts.record(served);
  if (!fault) {
    sendJson(res, call.response);
    return;
  }
  const mine = new Set<NodeJS.Timeout>();
  res.once("close", () => {
    for (const timer of mine) timers.delete(timer);
  });
  sendWithFault(res, fault, call.response, {
    track: (timer) => {
      timers.add(timer);
      mine.add(timer);
    },
    untrack: (timer) => {
      timers.delete(timer);
      mine.delete(timer);
    },
    // On the record already kept, so that a test sees how far a streamed answer got.
    bodyBytes: (bytes) => {
      served.bodyBytes = bytes;
    },
  });
}
