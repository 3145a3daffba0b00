import type { Logger } from "../log/logger.js";
import { type RequestInfo, SchemaMismatchError } from "./errors.js";
import { issuesOf } from "./issues.js";
import { type Child, childSchema, rawChildrenSchema } from "./schemas.js";

/**
 * Reads GET /children: an entry that cannot be read is skipped alone, with a warning, and the
 * readable children are returned. A body that is not a list at all is a SchemaMismatchError.
 *
 * `warned` holds the unreadable entries already reported, so that the same entry, listed again at
 * every discovery, is reported once; it is replaced by this listing's, so that an entry mended
 * and broken again is reported again, and the set never outgrows one listing.
 */
export function parseChildren(
  body: unknown,
  info: RequestInfo,
  logger: Logger,
  warned: Set<string>,
): Child[] {
  const list = rawChildrenSchema.safeParse(body);
  if (!list.success) throw new SchemaMismatchError(info, issuesOf(list.error), 200);
  const children: Child[] = [];
  const unreadable = new Set<string>();
  list.data.forEach((raw, index) => {
    const parsed = childSchema.safeParse(raw);
    if (parsed.success) {
      children.push(parsed.data);
      return;
    }
    const rawId = (raw as { id?: unknown } | null)?.id;
    const id = typeof rawId === "string" ? rawId : undefined;
    const issues = issuesOf(parsed.error);
    const key = `${id ?? `#${index}`} ${issues.join("; ")}`;
    unreadable.add(key);
    if (!warned.has(key))
      logger.warn({ index, id, issues }, "skipping an unreadable child in the API's list of children");
  });
  warned.clear();
  for (const key of unreadable) warned.add(key);
  return children;
}
