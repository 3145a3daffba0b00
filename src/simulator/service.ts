import { authenticate, type TokenLabel } from "./auth.js";
import { childrenEndpoint, type EndpointContext, eventsEndpoint, todayEndpoint } from "./endpoints.js";
import { type ApiResponse, errorResponse } from "./http-io.js";
import type { RateLimiter } from "./rate-limiter.js";
import { type BaseName, type BasePaths, matchBase, matchRoute } from "./routing.js";

export interface ServiceContext extends EndpointContext {
  bases: BasePaths;
  limiter: RateLimiter;
  /** Retry-After on a 429: none (the spec promises none), a fixed delay, or the window's. */
  retryAfterSeconds: number | "window" | undefined;
}

export interface IncomingCall {
  method: string;
  /** Path and query as received. */
  url: string;
  authorization: string | undefined;
}

export interface HandledCall {
  response: ApiResponse;
  token: TokenLabel;
  base: BaseName | undefined;
  /** Path relative to the base, query included, as received. */
  path: string;
  /** Whether the request named an endpoint with a valid token and was let through (faults apply). */
  admitted: boolean;
}

/**
 * The checks in the order a gateway would make them: method, path, token, rate, then the
 * endpoint's own (403, 409, 400). A request counts against the rate once its token is valid.
 */
export function handleCall(ctx: ServiceContext, call: IncomingCall): HandledCall {
  const url = new URL(call.url, "http://simulator.invalid");
  const auth = authenticate(call.authorization, ctx.households);
  const located = matchBase(url.pathname, ctx.bases);
  const path = located ? `${located.rest}${url.search}` : `${url.pathname}${url.search}`;
  const done = (response: ApiResponse, admitted = false): HandledCall => ({
    response,
    token: auth.label,
    base: located?.base,
    path,
    admitted,
  });

  if (call.method !== "GET") {
    return done(errorResponse(405, "only GET is served", { allow: "GET" }));
  }
  const route = located && matchRoute(located.rest);
  if (!route) return done(errorResponse(404, "no such endpoint"));
  if (!auth.ok) return done(errorResponse(401, auth.error));
  const admission = ctx.limiter.admit(auth.household.token);
  if (!admission.admitted) {
    const seconds =
      ctx.retryAfterSeconds === "window"
        ? Math.max(1, Math.ceil(admission.retryAfterMs / 1000))
        : ctx.retryAfterSeconds;
    const headers = seconds === undefined ? undefined : { "retry-after": String(seconds) };
    return done(errorResponse(429, "more than the allowed requests per minute", headers));
  }
  switch (route.name) {
    case "children":
      return done(childrenEndpoint(ctx, auth.household), true);
    case "today":
      return done(todayEndpoint(ctx, auth.household, route.childId), true);
    case "events":
      return done(eventsEndpoint(ctx, auth.household, route.childId, url.searchParams), true);
  }
}
