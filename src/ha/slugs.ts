import type { Child } from "../api/schemas.js";
import { foldName } from "../engine/children.js";

/** A first name folded to `[a-z0-9_]`, accents removed: the `<child>` part of entity ids. */
export function foldToSlug(name: string): string {
  const slug = foldName(name)
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return slug === "" ? "child" : slug;
}

/**
 * Slugs of all the children followed, by child id. Children whose names fold alike each get `_`
 * and the first 4 characters of their id appended, so no entity id is shared.
 */
export function slugsFor(children: readonly Child[]): Map<string, string> {
  const byBase = new Map<string, Child[]>();
  for (const child of children) {
    const base = foldToSlug(child.firstName);
    byBase.set(base, [...(byBase.get(base) ?? []), child]);
  }
  const slugs = new Map<string, string>();
  for (const [base, group] of byBase) {
    for (const child of group) {
      const suffix = child.id
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")
        .slice(0, 4);
      slugs.set(child.id, group.length > 1 ? `${base}_${suffix}` : base);
    }
  }
  return slugs;
}
