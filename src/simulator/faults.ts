import type { ServerResponse } from "node:http";
import { type ApiResponse, JSON_CONTENT_TYPE, sendJson, sendText } from "./http-io.js";

/** Ways the next answers can go wrong, for the client's and the engine's failure paths. */
export type Fault =
  /** Any status, a 5xx or a redirect (with a location header) for instance. */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Well-formed JSON that is not what the spec shows (status 200 unless told). */
  | { kind: "body"; body: unknown; status?: number }
  /** Status 200 and a body that is not JSON. */
  | { kind: "malformed-json" }
  /** The right answer, after a delay before the headers (a setTimeout, so fake timers drive it). */
  | { kind: "slow"; delayMs: number }
  /** A content-length, half of the body, then the connection is destroyed. */
  | { kind: "cut-off" };

export type FaultKind = Fault["kind"];

/** Which requests a fault may hit: by path relative to the base (`/children/…/events`). */
export type FaultMatch = string | RegExp | ((path: string) => boolean);

interface Armed {
  fault: Fault;
  remaining: number;
  match: ((path: string) => boolean) | undefined;
}

/** Faults armed by tests, each for a number of matching requests, in the order they were armed. */
export class FaultQueue {
  #armed: Armed[] = [];

  arm(count: number, fault: Fault, match?: FaultMatch): void {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`fault count must be ≥ 1, got ${count}`);
    this.#armed.push({ fault, remaining: count, match: matcher(match) });
  }

  /** The fault for this request, if one is armed for it (and one use of it spent). */
  take(path: string): Fault | undefined {
    const armed = this.#armed.find((a) => a.match === undefined || a.match(path));
    if (!armed) return undefined;
    armed.remaining--;
    if (armed.remaining === 0) this.#armed = this.#armed.filter((a) => a !== armed);
    return armed.fault;
  }

  clear(): void {
    this.#armed = [];
  }

  get pending(): number {
    return this.#armed.reduce((sum, a) => sum + a.remaining, 0);
  }
}

function matcher(match: FaultMatch | undefined): ((path: string) => boolean) | undefined {
  if (match === undefined || typeof match === "function") return match;
  if (typeof match === "string") return (path) => path === match;
  return (path) => match.test(path);
}

/** Status a faulted answer goes out with, for the request log. */
export function faultStatus(fault: Fault, response: ApiResponse): number {
  switch (fault.kind) {
    case "status":
      return fault.status;
    case "body":
      return fault.status ?? 200;
    case "malformed-json":
      return 200;
    case "slow":
      return response.status;
    case "cut-off":
      return response.status;
  }
}

/**
 * Writes the answer with the fault applied. A slow answer registers its timer with `track`, so
 * that stopping the simulator cancels it.
 */
export function sendWithFault(
  res: ServerResponse,
  fault: Fault,
  response: ApiResponse,
  track: (timer: NodeJS.Timeout) => void,
): void {
  switch (fault.kind) {
    case "status":
      sendJson(res, {
        status: fault.status,
        body: fault.body ?? { error: `simulated failure ${fault.status}` },
        headers: fault.headers ?? {},
      });
      return;
    case "body":
      sendJson(res, { status: fault.status ?? 200, body: fault.body });
      return;
    case "malformed-json":
      sendText(res, 200, '{"events": [ {"id": "unterminated');
      return;
    case "slow": {
      const timer = setTimeout(() => sendJson(res, response), fault.delayMs);
      res.on("close", () => clearTimeout(timer));
      track(timer);
      return;
    }
    case "cut-off": {
      const text = JSON.stringify(response.body);
      res.writeHead(response.status, {
        "content-type": JSON_CONTENT_TYPE,
        "content-length": String(Buffer.byteLength(text)),
      });
      // Flush a part so the client is mid-body when the connection goes.
      res.write(text.slice(0, Math.max(1, Math.floor(text.length / 2))), () => res.socket?.destroy());
      return;
    }
  }
}
