import type { ApiSimulator } from "../../../src/simulator/index.js";

/**
 * n children of the demo household, as the engine tests build them: up to three of the demo's own
 * (Léa, ordinary; Noah, shared custody, a CalmDay every other day; Inès, no rules synced: 409),
 * then ordinary children with their own day plans. Returns the engine's children filter.
 */
export function budgetHousehold(sim: ApiSimulator, n: number): { childrenFilter?: string[] } {
  for (let i = 3; i < n; i++) sim.addChild(`Kid ${i}`);
  const demo = [sim.children.ordinary, sim.children.custody, sim.children.unsynced];
  return n < 3 ? { childrenFilter: demo.slice(0, n).map((c) => c.id) } : {};
}
