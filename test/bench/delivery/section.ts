import { duration, int, millis } from "../format.js";
import type { Section } from "../report/section.js";
import { deliveryGoals, perFact } from "./goals.js";
import { deliveryParams } from "./params.js";
import { type DeliveryResult, type ModeResult, runDelivery } from "./run-delivery.js";

export async function deliverySection(quick: boolean): Promise<Section> {
  return deliveryTable(await runDelivery(deliveryParams(quick)));
}

export function deliveryTable(r: DeliveryResult): Section {
  const label = (m: ModeResult) => (m.mode === "rest" ? "REST" : "MQTT");
  const cell = (pick: (m: ModeResult) => string) => r.modes.map(pick);
  return {
    id: "delivery",
    title: "Delivery, MQTT beside REST",
    goalsLabel: "Delivery",
    setup:
      `The compiled bridge on the machine's Node against the simulator (real time) and one real Home Assistant ` +
      `${r.homeAssistantVersion} whose MQTT integration runs on a real Mosquitto, in each publishing mode in turn. ` +
      `A burst: ${r.params.burst.toLocaleString("en")} facts recorded at one instant for one child while the bridge ` +
      `runs. A catch-up: ${r.params.catchupFacts.toLocaleString("en")} journal facts over ` +
      `${r.params.catchupChildren} children between local midnight and now, recorded before a first start (no ` +
      "stored cursor).",
    tables: [
      {
        columns: ["", ...r.modes.map(label)],
        numeric: true,
        rows: [
          ["burst: first poll that sees it → last event fired", ...cell((m) => duration(m.burst.wallMs))],
          ["burst: time a fact", ...cell((m) => millis(perFact(m)))],
          ["burst: bridge CPU time", ...cell((m) => duration(m.burst.cpuMs))],
          ["catch-up: start → last backlog fact fired", ...cell((m) => duration(m.catchup.drainMs))],
          ["catch-up: events pages read", ...cell((m) => int(m.catchup.pages))],
          ["catch-up: facts fired", ...cell((m) => `${m.catchup.delivered} / ${m.catchup.facts}`)],
          [
            "catch-up: fired again / out of order",
            ...cell((m) => `${m.catchup.duplicates} / ${m.catchup.inOrder ? "none" : "some"}`),
          ],
        ],
      },
    ],
    notes: [
      "time a fact: the burst's time ÷ its facts. Both modes fire the same event through the same script, which " +
        "also writes the child's delivery record; MQTT mode also publishes each fact to the child's event entity " +
        "and device trigger (Home Assistant's own MQTT client, QoS 0: it does not wait for the broker's receipt).",
      "catch-up: from the bridge's spawn to the last backlog fact Home Assistant fired. The API's 30 requests a " +
        "minute let the pages be read in about 3.5 minutes; delivery should not be what takes longer.",
      "fired again: a fact Home Assistant fired more than once. Out of order: a child's facts fired in another " +
        "order than her journal's. Counted from every reward_facts_event Home Assistant fired.",
    ],
    goals: deliveryGoals(r),
  };
}
