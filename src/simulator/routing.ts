/** Which of the two base addresses a request used. */
export type BaseName = "current" | "legacy";

export interface BasePaths {
  current: string;
  legacy: string;
}

export type Route =
  | { name: "children" }
  | { name: "today"; childId: string }
  | { name: "events"; childId: string };

/** `/api/v1/` → `/api/v1`; the root stays the empty string. */
export function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  if (trimmed !== "" && !trimmed.startsWith("/"))
    throw new RangeError(`base path must start with /: ${path}`);
  return trimmed;
}

/** The base a path falls under (the longest that fits) and the path relative to it. */
export function matchBase(pathname: string, bases: BasePaths): { base: BaseName; rest: string } | undefined {
  const candidates = (Object.entries(bases) as [BaseName, string][]).sort(
    (a, b) => b[1].length - a[1].length,
  );
  for (const [base, prefix] of candidates) {
    if (pathname.startsWith(`${prefix}/`)) return { base, rest: pathname.slice(prefix.length) };
  }
  return undefined;
}

/** The endpoint a relative path names; undefined for anything else (a 404). */
export function matchRoute(rest: string): Route | undefined {
  if (rest === "/children") return { name: "children" };
  const match = /^\/children\/([^/]+)\/(today|events)$/.exec(rest);
  if (!match) return undefined;
  let childId: string;
  try {
    childId = decodeURIComponent(match[1] ?? "");
  } catch {
    return undefined;
  }
  return match[2] === "today" ? { name: "today", childId } : { name: "events", childId };
}
