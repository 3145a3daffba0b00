import { createHash } from "node:crypto";
import type { LovelaceConfig } from "./lovelace.js";

// How the bridge knows a dashboard is still as it wrote it: it saves, beside the configuration,
// a hash of what it wrote. A dashboard whose content no longer matches its own hash (edited in
// the dashboard editor), or that has none (made by hand), is the user's: never saved over. Pure.

/** The key of the bridge's mark in the saved configuration (the frontend ignores keys it does not know). */
export const MARK_KEY = "reward_facts_bridge";

export interface Mark {
  note: string;
  hash: string;
}

/** What is saved: the configuration and the bridge's mark of it. */
export type MarkedConfig = LovelaceConfig & { [MARK_KEY]: Mark };

/** JSON with every object's keys in order, so that a round trip through storage hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// SHA-256 of the canonical JSON in UTF-8: every bridge so far has saved this digest, so the marks
// already saved still match.
function hashOf(content: unknown): string {
  return createHash("sha256").update(canonical(content), "utf8").digest("hex").slice(0, 32);
}

export function marked(config: LovelaceConfig): MarkedConfig {
  return {
    ...config,
    [MARK_KEY]: {
      note: "Written by the Reward Facts bridge, which keeps it up to date until it is edited here.",
      hash: hashOf(config),
    },
  };
}

/**
 * - `absent`: no configuration saved yet;
 * - `same`: the bridge's, untouched, and what it would write now;
 * - `outdated`: the bridge's, untouched, but the children (or the bridge) changed since;
 * - `changed`: edited by someone, or never the bridge's.
 */
export type Judgement = "absent" | "same" | "outdated" | "changed";

export function judge(stored: unknown, wanted: LovelaceConfig): Judgement {
  if (stored === undefined || stored === null) return "absent";
  if (typeof stored !== "object" || Array.isArray(stored)) return "changed";
  const { [MARK_KEY]: mark, ...content } = stored as Record<string, unknown>;
  const hash = (mark as Partial<Mark> | undefined)?.hash;
  if (typeof hash !== "string" || hash !== hashOf(content)) return "changed";
  return hash === hashOf(wanted) ? "same" : "outdated";
}
