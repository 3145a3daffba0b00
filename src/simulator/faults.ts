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
  | { kind: "cut-off" }
  /**
   * Status and headers at once (no content-length), then one byte every `everyMs` (a setTimeout,
   * so fake timers drive it): `bytes` spaces, JSON's own whitespace, then the right answer at
   * once; without `bytes`, spaces for ever. A body that never ends, or ends after a long time.
   */
  | { kind: "trickle"; everyMs: number; bytes?: number }
  /**
   * A 200 whose body is `bytes` long (a JSON object with one long string), with a content-length
   * or without one (chunked), streamed as fast as the connection takes it: the simulator never
   * holds more than a chunk of it.
   */
  | { kind: "huge"; bytes: number; contentLength: boolean };

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
    case "trickle":
      return response.status;
    case "huge":
      return 200;
  }
}

/** What a faulted answer reports back to the server while it is written. */
export interface FaultHooks {
  /** A timer of the answer's, which stopping the simulator cancels. */
  track(timer: NodeJS.Timeout): void;
  /** A tracked timer that has fired. */
  untrack(timer: NodeJS.Timeout): void;
  /** Bytes of the body handed to the connection so far (for the faults that stream one). */
  bodyBytes(bytes: number): void;
}

/**
 * Writes the answer with the fault applied. A slow or trickling answer registers its timers with
 * `hooks.track`, so that stopping the simulator cancels them.
 */
export function sendWithFault(
  res: ServerResponse,
  fault: Fault,
  response: ApiResponse,
  hooks: FaultHooks,
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
      hooks.track(timer);
      return;
    }
    case "trickle":
      trickle(res, fault, response, hooks);
      return;
    case "huge":
      sendHuge(res, fault, hooks);
      return;
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

function trickle(
  res: ServerResponse,
  fault: Extract<Fault, { kind: "trickle" }>,
  response: ApiResponse,
  hooks: FaultHooks,
): void {
  res.writeHead(response.status, { ...response.headers, "content-type": JSON_CONTENT_TYPE });
  res.flushHeaders();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  res.on("close", () => clearTimeout(timer));
  const next = () => {
    if (timer) hooks.untrack(timer);
    if (res.destroyed) return;
    if (fault.bytes !== undefined && sent >= fault.bytes) {
      const text = JSON.stringify(response.body);
      res.end(text);
      hooks.bodyBytes(sent + Buffer.byteLength(text));
      return;
    }
    res.write(" ");
    sent++;
    hooks.bodyBytes(sent);
    timer = setTimeout(next, fault.everyMs);
    hooks.track(timer);
  };
  timer = setTimeout(next, fault.everyMs);
  hooks.track(timer);
}

const HUGE_CHUNK = Buffer.alloc(64 * 1024, "x");

/** Streams `{"pad":"xxx…"}` of exactly `bytes`, a chunk at a time, each once the connection drains. */
function sendHuge(res: ServerResponse, fault: Extract<Fault, { kind: "huge" }>, hooks: FaultHooks): void {
  const head = Buffer.from('{"pad":"');
  const tail = Buffer.from('"}');
  const padding = Math.max(0, fault.bytes - head.length - tail.length);
  res.writeHead(200, {
    "content-type": JSON_CONTENT_TYPE,
    ...(fault.contentLength ? { "content-length": String(head.length + padding + tail.length) } : {}),
  });
  let written = 0;
  let padded = 0;
  const write = (chunk: Buffer): boolean => {
    const more = res.write(chunk);
    written += chunk.length;
    hooks.bodyBytes(written);
    return more;
  };
  const pump = () => {
    if (res.destroyed) return;
    if (written === 0 && !write(head)) {
      res.once("drain", pump);
      return;
    }
    while (padded < padding) {
      if (res.destroyed) return;
      const chunk = HUGE_CHUNK.subarray(0, Math.min(HUGE_CHUNK.length, padding - padded));
      padded += chunk.length;
      if (!write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end(tail);
    written += tail.length;
    hooks.bodyBytes(written);
  };
  pump();
}
