import type { ChildRef } from "../../engine/sink.js";
import type { Logger } from "../../log/logger.js";
import { type Fold, idSlug, loadFold, newSlugs } from "./slugs.js";

/*
 * A child's slug (the `<child>` of her entity ids, and her facts' `child`) is settled when the
 * bridge first publishes her and kept from then on: a rename in the app changes her name on the
 * device and in `child_name`, never an id a user's automation names. Kept in the data directory;
 * a bridge that lost it (a new or deleted data directory, an upgrade from a version that kept
 * none) takes back what Home Assistant already shows of the child before it makes a new one.
 */

/** Where settled slugs are kept across runs (the data directory; the app wires it). */
export interface SlugMemory {
  load(): Promise<Readonly<Record<string, string>> | undefined>;
  save(slugs: Readonly<Record<string, string>>): Promise<void>;
}

/** The slugs Home Assistant already shows, by child id (found by the children's ids). */
export type ShownSlugs = (children: readonly ChildRef[]) => Promise<ReadonlyMap<string, string>>;

export class SettledSlugs {
  readonly #memory: SlugMemory | undefined;
  readonly #logger: Logger;
  /** Every child ever settled, followed now or not: a slug once given is never given again. */
  #settled = new Map<string, string>();
  #loaded = false;
  #fold: Fold | undefined;

  constructor(memory: SlugMemory | undefined, logger: Logger) {
    this.#memory = memory;
    this.#logger = logger;
  }

  /** The child's settled slug; before it is settled (Home Assistant not asked yet), one from her id. */
  slugOf(child: ChildRef): string {
    return this.#settled.get(child.id) ?? idSlug(child.id);
  }

  /**
   * Settles the slugs of the children not settled yet: what Home Assistant shows of them, else
   * their folded first name; when that is taken, or two newcomers fold alike, `_` and the first
   * four characters of the id are appended. When Home Assistant cannot be asked, nothing is
   * settled (the next call tries again).
   */
  async settle(children: readonly ChildRef[], shown: ShownSlugs): Promise<void> {
    await this.#load();
    const newcomers = children.filter((child) => !this.#settled.has(child.id));
    if (newcomers.length === 0) return;
    let found: ReadonlyMap<string, string>;
    try {
      found = await shown(newcomers);
    } catch (error) {
      this.#logger.debug(
        { err: error },
        "Home Assistant could not be asked for the children's entity ids yet",
      );
      return;
    }
    const taken = new Set(this.#settled.values());
    const fresh: ChildRef[] = [];
    for (const child of newcomers) {
      const slug = found.get(child.id);
      if (slug !== undefined && !taken.has(slug)) {
        this.#settled.set(child.id, slug);
        taken.add(slug);
      } else fresh.push(child);
    }
    if (fresh.length > 0) {
      this.#fold ??= await loadFold();
      for (const [id, slug] of newSlugs(this.#fold, fresh, taken)) this.#settled.set(id, slug);
    }
    await this.#save();
  }

  async #load(): Promise<void> {
    if (this.#loaded || !this.#memory) return;
    try {
      const stored = await this.#memory.load();
      for (const [id, slug] of Object.entries(stored ?? {})) {
        if (typeof slug === "string" && /^[a-z0-9_]+$/.test(slug)) this.#settled.set(id, slug);
      }
    } catch (error) {
      this.#logger.warn(
        { err: error },
        "the children's settled entity ids could not be read; asking Home Assistant",
      );
    }
    this.#loaded = true;
  }

  async #save(): Promise<void> {
    try {
      await this.#memory?.save(Object.fromEntries(this.#settled));
    } catch (error) {
      // Kept in memory; Home Assistant shows them from now on, which a next run asks first.
      this.#logger.warn({ err: error }, "the children's settled entity ids could not be saved");
    }
  }
}
