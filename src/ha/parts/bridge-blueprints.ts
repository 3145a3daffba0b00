import { createHash } from "node:crypto";
import type { Logger } from "../../log/logger.js";
import type { CommandLink } from "../link/command-link.js";
import shipped from "./shipped-blueprints.json" with { type: "json" };
import type { SinkPart } from "./sink-part.js";

// The bridge's blueprints, offered in Home Assistant itself (Settings → Blueprints), in the
// household's language: saved through Home Assistant's blueprint API into a folder of their own,
// kept current when the bridge's copy changes (an upgrade, a change of language), never over a
// person's change, and taken away by the removal step (removal.ts). No file to copy, no link to
// follow. Releases before 2024.10 cannot read them as written (their `min_version`): nothing is
// offered there, said once; DOCS tells how to copy them by hand. A blueprint that needs a newer
// release still (weekly_digest: 2025.6) waits for it: Home Assistant would save it, then refuse
// every automation made from it.

/** Where they are saved, under Home Assistant's `blueprints/automation/`. */
export const BRIDGE_BLUEPRINT_FOLDER = "reward_facts_bridge";

/** Every saved blueprint's `source_url` begins so; a fingerprint of the text follows `#`. */
export const BLUEPRINT_SOURCE =
  "https://github.com/reward-facts/reward-facts-bridge/blob/main/addon/blueprints";

type ShippedSet = Record<string, string>;
const shippedSets = shipped as Record<string, ShippedSet>;

/** The release from which Home Assistant reads them (their `min_version`). */
const FIRST_RELEASE = [2024, 10] as const;

export interface ListedBlueprint {
  metadata?: { name?: string; source_url?: string };
  error?: string;
}

/** One blueprint as the bridge offers it in a language: where, what, and how it is recognised. */
export interface OfferedBlueprint {
  path: string;
  yaml: string;
  sourceUrl: string;
}

/** The blueprints in `language` (English when the bridge has none in it). Pure. */
export function offeredBlueprints(language: string): OfferedBlueprint[] {
  const code = shippedSets[language] ? language : "en";
  const folder = code === "en" ? "reward_facts" : `reward_facts_${code}`;
  return Object.entries(shippedSets[code] ?? {}).map(([file, yaml]) => ({
    path: `${BRIDGE_BLUEPRINT_FOLDER}/${file}`,
    yaml,
    sourceUrl: `${BLUEPRINT_SOURCE}/automation/${folder}/${file}#${createHash("sha256").update(yaml).digest("hex").slice(0, 12)}`,
  }));
}

/** The release a blueprint's text asks for (its `min_version`, the blueprint's only one), as year and month. */
export function minRelease(yaml: string): readonly [number, number] {
  const found = /^ {4}min_version: "?(\d+)\.(\d+)/m.exec(yaml);
  return found ? [Number(found[1]), Number(found[2])] : FIRST_RELEASE;
}

/** Whether Home Assistant `haVersion` (`2026.11.0`) is `release` or later. */
export function isAtLeast(haVersion: string | undefined, release: readonly [number, number]): boolean {
  const [year = 0, month = 0] = (haVersion ?? "").split(".").map(Number);
  return year > release[0] || (year === release[0] && month >= release[1]);
}

/** A blueprint's own name, as its file gives it (the first two-space `name:` is the blueprint's). */
export function blueprintName(yaml: string): string | undefined {
  const name = /^ {2}name: (.+)$/m.exec(yaml)?.[1]?.trim();
  return name?.replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
}

/** Every name the bridge has given the blueprint of `file`, in any language. */
function namesOf(file: string): Set<string> {
  const names = new Set<string>();
  for (const set of Object.values(shippedSets)) {
    const name = set[file] && blueprintName(set[file]);
    if (name) names.add(name);
  }
  return names;
}

/**
 * What to do with one of the bridge's blueprints, given what Home Assistant lists at its path:
 * save it (none there), nothing (the same text there), update it (an earlier text of the bridge's,
 * in any language, its name as the bridge gave it), or leave it (a person changed it).
 */
export function blueprintAction(
  offered: OfferedBlueprint,
  listed: ListedBlueprint | undefined,
): "save" | "none" | "update" | "leave" {
  if (!listed) return "save";
  if (listed.metadata?.source_url === offered.sourceUrl) return "none";
  return isBridgeBlueprint(offered.path, listed) ? "update" : "leave";
}

/**
 * Whether what Home Assistant lists at `path` is the bridge's own, as it saved it: in its folder,
 * from its source, with a name it gave (a person who renames one makes it theirs).
 */
export function isBridgeBlueprint(path: string, listed: ListedBlueprint): boolean {
  if (!path.startsWith(`${BRIDGE_BLUEPRINT_FOLDER}/`)) return false;
  const file = path.slice(BRIDGE_BLUEPRINT_FOLDER.length + 1);
  return (
    listed.metadata?.source_url?.startsWith(`${BLUEPRINT_SOURCE}/`) === true &&
    namesOf(file).has(listed.metadata?.name ?? "")
  );
}

export interface BridgeBlueprintsOptions {
  link: CommandLink;
  ready: () => boolean;
  logger: Logger;
  /** The household's language code (`en`, `fr`), as it is now. */
  language: () => string;
  /** Home Assistant's version, once connected. */
  haVersion: () => string | undefined;
}

export class BridgeBlueprints implements SinkPart {
  readonly name = "blueprints";
  readonly #o: BridgeBlueprintsOptions;
  /** Paths already said to be a person's, so that it is said once. */
  readonly #leftSaid = new Set<string>();
  /** Paths already said to wait for a newer release, so that it is said once. */
  readonly #waitingSaid = new Set<string>();
  #tooOldSaid = false;
  /** One look at a time: a connection and a change of language can come together. */
  #keeping: Promise<void> = Promise.resolve();

  constructor(options: BridgeBlueprintsOptions) {
    this.#o = options;
  }

  /**
   * A new connection (Home Assistant may have been restored meanwhile). The link counts as ready
   * only once every part has run, but its commands work already.
   */
  running(): Promise<void> {
    return this.#keep(() => true);
  }

  /** Offered again in the new language, if Home Assistant can be asked now (else at the next connection). */
  language(): Promise<void> {
    return this.#keep(this.#o.ready);
  }

  #keep(connected: () => boolean): Promise<void> {
    this.#keeping = this.#keeping.then(() => this.#keepNow(connected()));
    return this.#keeping;
  }

  async #keepNow(connected: boolean): Promise<void> {
    const { link, logger } = this.#o;
    if (!connected) return;
    const haVersion = this.#o.haVersion();
    if (!isAtLeast(haVersion, FIRST_RELEASE)) {
      if (!this.#tooOldSaid)
        logger.info(
          "this Home Assistant is older than 2024.10: the bridge's blueprints are not offered in it (DOCS tells how to copy them)",
        );
      this.#tooOldSaid = true;
      return;
    }
    try {
      const listed = await link.command<Record<string, ListedBlueprint>>({
        type: "blueprint/list",
        domain: "automation",
      });
      const saved: string[] = [];
      for (const offered of offeredBlueprints(this.#o.language())) {
        const release = minRelease(offered.yaml);
        if (!isAtLeast(haVersion, release)) {
          if (!this.#waitingSaid.has(offered.path))
            logger.info(
              { blueprint: offered.path },
              `this Home Assistant is older than ${release.join(".")}, which this blueprint needs: offered once Home Assistant is updated`,
            );
          this.#waitingSaid.add(offered.path);
          continue;
        }
        const action = blueprintAction(offered, listed[offered.path]);
        if (action === "leave" && !this.#leftSaid.has(offered.path)) {
          this.#leftSaid.add(offered.path);
          logger.info(
            { blueprint: offered.path },
            "a blueprint of the bridge was changed in Home Assistant: left as it is",
          );
        }
        if (action !== "save" && action !== "update") continue;
        await link.command({
          type: "blueprint/save",
          domain: "automation",
          path: offered.path,
          yaml: offered.yaml,
          source_url: offered.sourceUrl,
          allow_override: action === "update",
        });
        saved.push(offered.path);
      }
      if (saved.length > 0)
        logger.info({ blueprints: saved.length }, "offered the bridge's blueprints in Home Assistant");
    } catch (error) {
      // Not the engine's business: the blueprints are offered again at the next connection.
      logger.warn({ err: error }, "the bridge's blueprints could not be offered in Home Assistant");
    }
  }
}
