import type { Child } from "../../../src/api/schemas.js";
import { slugify } from "../../../src/ha/entities/slugify.js";
import { newSlugs } from "../../../src/ha/entities/slugs.js";
import type { ApiSimulator } from "../../../src/simulator/index.js";

export interface SideHousehold {
  /** Everyone both clients follow, in this order: ordinary, calm, unsynced, extras. */
  children: Child[];
  ordinary: Child;
  /** On the other household's day today: the today endpoint answers a CalmDay. */
  calm: Child;
  /** No rules synced: the today endpoint answers 409. */
  unsynced: Child;
  /** Entity slugs as the bridge makes them. */
  slugs: Map<string, string>;
}

/**
 * The demo household's Léa and Inès, a child whose today is a CalmDay (Noah when today is not his
 * day, else a child in shared custody on the other parity), and ordinary children up to `n`.
 */
export function sideHousehold(sim: ApiSimulator, n: number): SideHousehold {
  const ordinary = sim.children.ordinary;
  const unsynced = sim.children.unsynced;
  let calm = sim.children.custody;
  // Noah's own days alternate: when today is his, a child of the other parity has a CalmDay.
  for (const ownParity of [0, 1] as const) {
    if (!sim.isMyDay(calm.id)) break;
    calm = sim.addChild("Camille", { custody: { kind: "alternating", ownParity }, planned: false });
  }
  if (sim.isMyDay(calm.id)) throw new Error("no child with a CalmDay today");
  const extras = Array.from({ length: Math.max(0, n - 3) }, (_, i) => sim.addChild(`Kid ${i + 4}`));
  const children = [ordinary, calm, unsynced, ...extras];
  return { children, ordinary, calm, unsynced, slugs: newSlugs(slugify, children) };
}
