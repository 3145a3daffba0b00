// undici's Agent, Pool and request(), loaded without the rest of the package. Its index also loads
// fetch, WebSocket, EventSource, the mock agents, the caches and cookies, which the bridge never
// uses, and its cookies module reads globalThis.Headers, which on Node 22 and later makes Node load
// its own bundled copy of undici as well. The files below are undici's own (the version is pinned
// in package.json); imported statically, so that `npm run build` bundles them like any other
// module. What it saves, and what to check on an undici upgrade: the ledger, src/build/README.md.
import type * as Undici from "undici";
import apiMethods from "undici/lib/api/index.js";
import agentModule from "undici/lib/dispatcher/agent.js";
import dispatcherModule from "undici/lib/dispatcher/dispatcher.js";
import poolModule from "undici/lib/dispatcher/pool.js";
import globalModule from "undici/lib/global.js";
import { keepGenericWasmWrappers } from "./wasm-wrappers.js";

// Before any request, as undici compiles its HTTP parser (WebAssembly) at the first one.
keepGenericWasmWrappers();

const DispatcherClass = dispatcherModule as typeof Undici.Dispatcher;
// What undici's index does: gives every dispatcher (Agent, Pool, MockAgent…) request() and its kin.
Object.assign(DispatcherClass.prototype, apiMethods);

export const Agent = agentModule as typeof Undici.Agent;
export type Agent = Undici.Agent;
export const Pool = poolModule as typeof Undici.Pool;
export type Pool = Undici.Pool;
export type { Dispatcher } from "undici";

const { getGlobalDispatcher } = globalModule as { getGlobalDispatcher: typeof Undici.getGlobalDispatcher };

export type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
  method?: Undici.Dispatcher.HttpMethod;
  dispatcher?: Undici.Dispatcher;
};

/**
 * undici's request() for an absolute URL: through `dispatcher`, else the global one; GET unless a
 * method is given (PUT when there is a body, as undici does).
 */
export function request(
  url: string | URL,
  options: RequestOptions = {},
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const target = new URL(url);
  return dispatcher.request({
    ...rest,
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: rest.method ?? (rest.body ? "PUT" : "GET"),
  });
}
