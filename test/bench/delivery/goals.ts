import { duration, millis } from "../format.js";
import { everyOne, type Goal, withinOfBest } from "../goals/goal.js";
import type { DeliveryResult, ModeResult } from "./run-delivery.js";

// The delivery section's goals, apart from the run that measures them (run-delivery.ts starts the
// lab), so that their definitions are tested without a real Home Assistant.

/** Issue 48: MQTT within 1.5 × REST's time a fact in a burst, and within 1.1 × REST's catch-up. */
export const DELIVERY_GOALS = { burstTolerance: 0.5, catchupTolerance: 0.1 } as const;

/** A burst's time a fact, in ms. */
export const perFact = (m: ModeResult | undefined) => (m ? m.burst.wallMs / m.burst.facts : Number.NaN);

export function deliveryGoals(r: DeliveryResult): Goal[] {
  const rest = r.modes.find((m) => m.mode === "rest");
  const mqtt = r.modes.find((m) => m.mode === "mqtt");
  return [
    withinOfBest(
      `burst of ${r.params.burst}, time a fact, MQTT vs REST`,
      perFact(mqtt),
      perFact(rest),
      DELIVERY_GOALS.burstTolerance,
      (ms) => millis(ms),
    ),
    withinOfBest(
      `catch-up of ${r.params.catchupFacts.toLocaleString("en")}, time to drain, MQTT vs REST`,
      mqtt?.catchup.drainMs ?? Number.NaN,
      rest?.catchup.drainMs ?? Number.NaN,
      DELIVERY_GOALS.catchupTolerance,
      duration,
    ),
    ...r.modes.map((m) =>
      everyOne(
        `catch-up facts fired, ${m.mode === "rest" ? "REST" : "MQTT"}`,
        m.catchup.duplicates === 0 && m.catchup.inOrder ? m.catchup.delivered : 0,
        m.catchup.facts,
      ),
    ),
  ];
}
