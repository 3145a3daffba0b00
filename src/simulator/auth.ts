import type { HouseholdKey, Households, SimHousehold } from "./household.js";

/** How the request log names a token: never by its text. */
export type TokenLabel = HouseholdKey | "missing" | "unknown";

export type Authentication =
  | { ok: true; label: TokenLabel; household: SimHousehold }
  | { ok: false; label: TokenLabel; error: string };

/** Reads `Authorization: Bearer <token>`; the error texts never repeat what was sent. */
export function authenticate(header: string | undefined, households: Households): Authentication {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? "");
  const token = match?.[1];
  if (token === undefined) return { ok: false, label: "missing", error: "missing bearer token" };
  const household = households.ownerOf(token);
  if (!household) return { ok: false, label: "unknown", error: "unknown token" };
  if (household.revoked) return { ok: false, label: household.key, error: "token revoked" };
  return { ok: true, label: household.key, household };
}
