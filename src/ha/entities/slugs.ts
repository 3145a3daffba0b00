import type { Child } from "../../api/schemas.js";

/**
 * The longest slug the bridge makes: Home Assistant holds an entity id to 255 characters, and a
 * child's ids add the domain, the prefix and the entity's key around it (`binary_sensor.` …
 * `_screen_time_allowed`, and the demo's longer prefix).
 */
export const MAX_SLUG_LENGTH = 64;

/** Folds names as Home Assistant does; loaded only when a child's slug is first settled. */
export type Fold = (name: string) => string;

/** Home Assistant's slugify, loaded on first use (its transliteration tables are large). */
export async function loadFold(): Promise<Fold> {
  const { slugify } = await import("./slugify.js");
  return slugify;
}

/**
 * A first name as the `<child>` part of entity ids: folded as Home Assistant folds it, at most
 * MAX_SLUG_LENGTH characters (cut between words where it can); from the child's id when nothing
 * of the name is left (a name of emoji or symbols only).
 */
export function slugOfName(fold: Fold, name: string, childId: string): string {
  let slug = fold(name);
  if (slug.length > MAX_SLUG_LENGTH) {
    const cut = slug.slice(0, MAX_SLUG_LENGTH + 1);
    const boundary = cut.lastIndexOf("_");
    slug = (boundary > 0 ? cut.slice(0, boundary) : cut.slice(0, MAX_SLUG_LENGTH)).replace(/_+$/, "");
  }
  return slug === "" ? idSlug(childId) : slug;
}

/** `child_` and the first eight letters and digits of the id: for a name that folds to nothing. */
export function idSlug(childId: string): string {
  return `child_${idKey(childId).slice(0, 8)}`;
}

/** The id's letters and digits, lower-case: what suffixes are cut from. */
export function idKey(childId: string): string {
  return childId.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Slugs for children seen for the first time, by child id, beside the slugs already `taken`: the
 * folded first name, or, when another child has it or folds alike, `_` and the first four
 * characters of the id appended (more where those are taken too), so no entity id is shared.
 */
export function newSlugs(
  fold: Fold,
  children: readonly Child[],
  taken: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const bases = children.map((child) => slugOfName(fold, child.firstName, child.id));
  const given = new Set(taken);
  const slugs = new Map<string, string>();
  children.forEach((child, index) => {
    const base = bases[index] as string;
    const shared = given.has(base) || bases.filter((other) => other === base).length > 1;
    const slug = shared ? withIdSuffix(base, child.id, given) : base;
    slugs.set(child.id, slug);
    given.add(slug);
  });
  return slugs;
}

function withIdSuffix(base: string, childId: string, taken: ReadonlySet<string>): string {
  const key = idKey(childId);
  for (let length = 4; length < key.length; length++) {
    const slug = `${base}_${key.slice(0, length)}`;
    if (!taken.has(slug)) return slug;
  }
  return `${base}_${key}`;
}
