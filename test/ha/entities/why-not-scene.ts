import { expect } from "vitest";
import { type WhyNot, whyNotAllowed } from "../../../src/ha/entities/entities.js";
import type { ApiSimulator } from "../../../src/simulator/index.js";
import type { MqttRig } from "../../lab/index.js";
import type { RigSuite } from "../../support/lab-bridges.js";

// screen_time_allowed's why_not, each value shown by driving the simulator into it: a child at the
// other home every day, a child whose day a parent froze, a child who spent every minute she had,
// and one who may use screens (no why_not). The same scene for each way of publishing.

/** The children of the scene, by what Home Assistant must say of each. */
export interface WhyNotScene {
  children: Array<{ id: string; slug: string; expected: WhyNot | undefined }>;
}

/** Every mandatory behavior of a child validated: her day is consumable, whatever the period. */
function validateMandatory(sim: ApiSimulator, childId: string): void {
  for (const rule of sim.behaviors(childId).filter((b) => b.mandatory))
    sim.addEvent(childId, { type: "behavior_validated", behaviorId: rule.id, label: rule.label });
}

function minutesLeft(sim: ApiSimulator, childId: string): number {
  const today = sim.today(childId);
  return today.isMyDay ? today.minutesRemaining : 0;
}

/** Sets the scene's children up in the simulator, before a bridge follows them. */
export function setWhyNotScene(sim: ApiSimulator): WhyNotScene {
  const away = sim.addChild("Aline", { custody: { kind: "away" }, planned: false });
  const frozen = sim.addChild("Basile", { planned: false });
  validateMandatory(sim, frozen.id);
  sim.freezeDay(frozen.id);
  const spent = sim.addChild("Chloé", { planned: false });
  validateMandatory(sim, spent.id);
  const menu = [...sim.menu(spent.id)]
    .filter((item) => item.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes);
  const biggest = menu[0];
  if (!biggest) throw new Error("the simulator's menu has no item that costs minutes");
  for (let i = 0; i < 50 && minutesLeft(sim, spent.id) > 0; i++)
    sim.addEvent(spent.id, { type: "menu_item_consumed", menuItemId: biggest.id, label: biggest.label });
  const allowed = sim.addChild("Dana", { planned: false });
  for (const rule of sim.behaviors(allowed.id))
    sim.addEvent(allowed.id, { type: "behavior_validated", behaviorId: rule.id, label: rule.label });
  const children = [
    { id: away.id, slug: "aline" },
    { id: frozen.id, slug: "basile" },
    { id: spent.id, slug: "chloe" },
    { id: allowed.id, slug: "dana" },
  ];
  const expected: Array<WhyNot | undefined> = [
    "other_household_day",
    "not_consumable_today",
    "no_minutes_left",
    undefined,
  ];
  // The scene is what the simulator answers: checked here, so a change of its rules fails loudly
  // rather than quietly testing another value.
  expect(children.map((child) => whyNotAllowed(sim.today(child.id)))).toEqual(expected);
  return { children: children.map((child, i) => ({ ...child, expected: expected[i] })) };
}

/** A bridge publishing `publish`'s way shows each child's why_not (none while allowed). */
export async function expectWhyNotShown(
  lab: RigSuite<MqttRig>,
  scene: WhyNotScene,
  publish: "rest" | "mqtt",
): Promise<void> {
  const { ha } = lab.rig;
  const run = await lab.start({ children: scene.children.map((child) => child.id), publish });
  for (const child of scene.children) {
    const entityId = `binary_sensor.reward_facts_${child.slug}_screen_time_allowed`;
    const state = await ha.waitFor(
      async () => {
        const now = await ha.getState(entityId);
        return now && now.state !== "unavailable" && now.state !== "unknown" ? now : undefined;
      },
      {
        timeoutMs: 90_000,
        description: () => `${entityId} published (the bridge said: ${run.text().slice(-1_500)})`,
      },
    );
    expect({ child: child.slug, state: state.state, why_not: state.attributes.why_not }).toEqual({
      child: child.slug,
      state: child.expected ? "off" : "on",
      why_not: child.expected,
    });
  }
}
