import { randomUUID } from "node:crypto";
import type { Logger } from "../log/logger.js";
import * as z from "../zod.js";
import { keptValue } from "./kept-value.js";
import type { Store } from "./open-store.js";

/*
 * What the bridge keeps about itself in the data directory besides the engine's cursors and
 * facts: its identity (the household lease names it), the children's settled slugs (the ids of
 * their entities, kept after a rename) and what it offered to Assist. Each is checked as it is
 * read back (kept-value.ts); the shapes are the Home Assistant side's (ha/settled-slugs.ts,
 * ha/assist.ts), met structurally: the store knows nothing of Home Assistant.
 */

/** A memory of one value: none until saved. */
export interface Memory<T> {
  load(): Promise<T | undefined>;
  save(value: T): Promise<void>;
}

/** This bridge's id: the same bridge across its restarts (a UUID it drew itself). */
const idSchema = z.string().check(z.regex(/^[0-9a-f-]{8,64}$/i));

/**
 * This bridge's id, drawn and kept on its first start. A damaged one is replaced (said once): the
 * bridge is then a new one to the household lease, which waits out the old one's last beat rather
 * than trust an id it cannot read.
 */
export async function bridgeIdentityOn(store: Store, logger: Logger): Promise<string> {
  const kept = keptValue(store, "instance_id", idSchema, logger, {
    what: "this bridge's identity",
    instead: "it takes a new one",
  });
  const known = await kept.get();
  if (known) return known;
  const drawn = randomUUID();
  await kept.set(drawn);
  return drawn;
}

const slugsSchema = z.record(z.string(), z.string().check(z.regex(/^[a-z0-9_]{1,64}$/)));

/** The children's settled slugs, by child id. A damaged record is set aside: they are settled again from what Home Assistant shows. */
export function slugMemoryOn(store: Store, logger: Logger): Memory<Readonly<Record<string, string>>> {
  const kept = keptValue(store, "entity_slugs", slugsSchema, logger, {
    what: "the children's settled entity ids",
    instead: "they are found again in what Home Assistant shows",
  });
  return { load: () => kept.get(), save: (slugs) => kept.set({ ...slugs }) };
}

const assistSchema = z.object({
  exposed: z.array(z.string()),
  aliases: z.record(z.string(), z.string()),
});

/** The store's key of what was offered to Assist. */
export const ASSIST_MEMORY_KEY = "assist";

/** What was offered to Assist. A damaged record is set aside: offered again as on a first start. */
export function assistMemoryOn(
  store: Store,
  logger: Logger,
): Memory<{ exposed: string[]; aliases: Record<string, string> }> {
  const kept = keptValue(store, ASSIST_MEMORY_KEY, assistSchema, logger, {
    what: "what was offered to Assist",
    instead:
      "the children's entities are offered again as on a first start (aliases already there are left alone)",
  });
  return {
    load: () => kept.get(),
    save: (record) => kept.set({ exposed: [...record.exposed], aliases: { ...record.aliases } }),
  };
}

const diarySchema = z.record(
  z.string(),
  z.array(
    z.object({
      id: z.string(),
      at: z.string(),
      type: z.enum(["behavior_validated", "session_started", "menu_item_consumed", "cheer_sent"]),
      label: z.nullable(z.string()),
      minutes: z.nullable(z.number()),
      cheer: z.nullable(z.string()),
    }),
  ),
);

/** The children's latest facts (ha/parts/fact-diary.ts). A damaged record is set aside: the diaries start again. */
export function diaryMemoryOn(store: Store, logger: Logger): Memory<z.infer<typeof diarySchema>> {
  const kept = keptValue(store, "fact_diary", diarySchema, logger, {
    what: "the children's latest facts",
    instead: "their diaries start again from the next fact",
  });
  return { load: () => kept.get(), save: (diaries) => kept.set(structuredClone(diaries)) };
}

const weekSchema = z.record(z.string(), z.record(z.string(), z.number()));

/** The children's own readings of their screen time per day (ha/parts/screen-time-week.ts). A damaged record is set aside. */
export function weekMemoryOn(store: Store, logger: Logger): Memory<z.infer<typeof weekSchema>> {
  const kept = keptValue(store, "screen_time_days", weekSchema, logger, {
    what: "the children's screen time per day",
    instead: "the week starts again from today's reading (Home Assistant's statistics keep theirs)",
  });
  return { load: () => kept.get(), save: (readings) => kept.set(structuredClone(readings)) };
}
