import { duration, int } from "../format.js";
import { atMost, everyOne, type Goal, withinOfBest } from "../goals/goal.js";
import { measureClient } from "./measure.js";
import type { SideObservation } from "./run-side.js";

/** Polite on a shared token: judged on the run with this many children, where the two together ask for more than 30. */
export const POLITE_CHILDREN = 10;
export const POLITE_MAX_429 = 1;

/**
 * Beside the hand-written `rest` sensors on one token: at most one 429 for the bridge and none for
 * rest (a 429 the bridge causes may fall on the other client, which the bridge cannot see), its
 * events no staler on average than rest's, and every fact of the window delivered to automations.
 */
export function politeGoals(observations: readonly SideObservation[]): Goal[] {
  const o = observations.find((x) => x.run.children === POLITE_CHILDREN);
  if (!o) return [];
  const bridge = measureClient(o, "bridge");
  const rest = measureClient(o, "rest");
  const staleness = withinOfBest(
    "event staleness mean, bridge vs rest's",
    bridge.eventStaleness.mean,
    rest.eventStaleness.mean,
    0,
    duration,
  );
  return [
    atMost("bridge 429s", bridge.rateLimited, POLITE_MAX_429, int, 0),
    atMost("rest 429s", rest.rateLimited, 0, int, 0),
    { ...staleness, target: "≤ rest's" },
    everyOne("journal facts of the window delivered by the bridge", bridge.reached, bridge.facts),
  ];
}
