import type { Child, EventsPage } from "../api/schemas.js";
import type { SimClock } from "./clock.js";
import type { Households, SimHousehold } from "./household.js";
import { type ApiResponse, errorResponse } from "./http-io.js";
import type { Journal } from "./journal.js";
import { formatCursor, parseSince } from "./since.js";
import { computeToday } from "./today.js";

/** What an empty page carries as cursor: null, or the since it was asked with (spec: not shown). */
export type EmptyPageCursor = "null" | "echo";

export interface EndpointContext {
  households: Households;
  journal: Journal;
  clock: SimClock;
  timeZone: string;
  pageSize: number;
  emptyPageCursor: EmptyPageCursor;
}

const notCovered = () => errorResponse(403, "child not covered by this token");

export function childrenEndpoint(ctx: EndpointContext, household: SimHousehold): ApiResponse {
  const body: Child[] = ctx.households
    .listed(household.key)
    .map((c) => ({ id: c.id, firstName: c.firstName }));
  return { status: 200, body };
}

export function todayEndpoint(ctx: EndpointContext, household: SimHousehold, childId: string): ApiResponse {
  const child = ctx.households.covered(household.key, childId);
  if (!child) return notCovered();
  if (!child.rulesSynced) return errorResponse(409, "no rules synced yet for this child");
  return { status: 200, body: computeToday(child, ctx.clock.now(), ctx.journal, ctx.timeZone) };
}

export function eventsEndpoint(
  ctx: EndpointContext,
  household: SimHousehold,
  childId: string,
  query: URLSearchParams,
): ApiResponse {
  const child = ctx.households.covered(household.key, childId);
  if (!child) return notCovered();
  const given = query.getAll("since");
  const raw = given[0] ?? null;
  const since = given.length > 1 ? undefined : parseSince(raw);
  if (!since) return errorResponse(400, "since must be a cursor or an ISO 8601 timestamp with a zone");
  const entries = ctx.journal.page(child, since, ctx.clock.now(), ctx.pageSize);
  const last = entries[entries.length - 1];
  const body: Omit<EventsPage, "events"> & { events: unknown[] } = {
    events: entries.map((e) => e.body),
    cursor: last
      ? formatCursor(last.recordedAt, last.id, ctx.timeZone)
      : ctx.emptyPageCursor === "echo"
        ? raw
        : null,
  };
  return { status: 200, body };
}
