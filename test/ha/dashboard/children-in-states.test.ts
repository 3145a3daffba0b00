import { describe, expect, it } from "vitest";
import { childrenInStates, type PublishedState } from "../../../src/ha/dashboard/children-in-states.js";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";

const demo = new EntityNames("reward_facts_demo");
const state = (
  entity_id: string,
  attributes: Record<string, unknown> = {},
  value?: string,
): PublishedState => ({ entity_id, attributes, ...(value === undefined ? {} : { state: value }) });

describe("the children a bridge has published, from Home Assistant's states", () => {
  it.each<[string, PublishedState[], ReturnType<typeof childrenInStates>]>([
    ["none", [state("sensor.reward_facts_status"), state("light.kitchen")], { children: [], mode: "rest" }],
    [
      "REST-made states, by first name, the slug from the id",
      [
        state("sensor.reward_facts_noah_minutes_remaining", { child_name: "Noah" }),
        state("sensor.reward_facts_lea_7f3c_minutes_remaining", { child_name: "Léa" }),
        state("sensor.reward_facts_lea_7f3c_points", { child_name: "Léa" }),
        state("binary_sensor.reward_facts_noah_my_day", { child_name: "Noah" }),
      ],
      {
        children: [
          { slug: "lea_7f3c", firstName: "Léa" },
          { slug: "noah", firstName: "Noah" },
        ],
        mode: "rest",
      },
    ],
    [
      "MQTT entities (a read-status sensor), a name missing",
      [
        state("sensor.reward_facts_ines_minutes_remaining", {}),
        state("sensor.reward_facts_ines_read_status", { reason: "no rules synced yet" }),
      ],
      { children: [{ slug: "ines", firstName: "ines" }], mode: "mqtt" },
    ],
    [
      "the demo's beside the bridge's, left out",
      [
        state("sensor.reward_facts_lea_minutes_remaining", { child_name: "Léa" }),
        state("sensor.reward_facts_demo_lea_minutes_remaining", { child_name: "Léa" }),
      ],
      { children: [{ slug: "lea", firstName: "Léa" }], mode: "rest" },
    ],
  ])("%s", (_what, states, expected) => {
    expect(childrenInStates(states, contractNames, [demo])).toEqual(expected);
  });

  it("tops each gauge at the unlocked minutes the states show, none when they show none", () => {
    const states = [
      state("sensor.reward_facts_lea_minutes_remaining", { child_name: "Léa" }, "25"),
      state("sensor.reward_facts_lea_minutes_unlocked", { child_name: "Léa" }, "45"),
      state("sensor.reward_facts_noah_minutes_remaining", { child_name: "Noah" }, "0"),
      state("sensor.reward_facts_noah_minutes_unlocked", { child_name: "Noah" }, "0"),
      state("sensor.reward_facts_ines_minutes_remaining", { child_name: "Inès" }, "unavailable"),
      state("sensor.reward_facts_ines_minutes_unlocked", { child_name: "Inès" }, "unavailable"),
      state("sensor.reward_facts_zoe_minutes_remaining", { child_name: "Zoé" }, "30"),
    ];
    expect(childrenInStates(states, contractNames).children).toEqual([
      { slug: "ines", firstName: "Inès" },
      { slug: "lea", firstName: "Léa", gaugeMax: 45 },
      { slug: "noah", firstName: "Noah" },
      { slug: "zoe", firstName: "Zoé", gaugeMax: 30 },
    ]);
  });

  it("finds the demo's own children under its names", () => {
    const states = [
      state("sensor.reward_facts_lea_minutes_remaining", { child_name: "Léa" }),
      state("sensor.reward_facts_demo_noah_minutes_remaining", { child_name: "Noah" }),
    ];
    expect(childrenInStates(states, demo).children).toEqual([{ slug: "noah", firstName: "Noah" }]);
  });
});
