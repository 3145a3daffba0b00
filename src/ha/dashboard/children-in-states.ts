import type { EntityNames } from "../entities/entity-names.js";
import type { DashboardChild } from "./child-cards.js";
import { gaugeTop } from "./gauge-top.js";

// The children a running bridge has published, as Home Assistant's states show them: what the
// one-shot `npm run dashboard` builds the dashboard from, knowing only Home Assistant (each gauge's
// top too, from the minutes the states show). Pure.

export interface PublishedState {
  entity_id: string;
  state?: string;
  attributes: Record<string, unknown>;
}

export interface PublishedChildren {
  children: DashboardChild[];
  /** MQTT when the children have read-status sensors (only MQTT discovery makes them). */
  mode: "rest" | "mqtt";
}

/** A naming's `<child>` of a minutes sensor's id, if it is one (a prefix is `[a-z0-9_]`: nothing to escape). */
function slugOf(entityId: string, names: EntityNames): string | undefined {
  return new RegExp(`^sensor\\.${names.prefix}_([a-z0-9_]+)_minutes_remaining$`).exec(entityId)?.[1];
}

/**
 * The children of `names`, by first name. `besides` are other namings whose ids also fit this
 * one's pattern (`sensor.reward_facts_demo_lea_minutes_remaining` is a `reward_facts` id of a child
 * `demo_lea`): their children are not these.
 */
export function childrenInStates(
  states: readonly PublishedState[],
  names: EntityNames,
  besides: readonly EntityNames[] = [],
): PublishedChildren {
  const ids = new Set(states.map((state) => state.entity_id));
  const byId = new Map(states.map((state) => [state.entity_id, state.state]));
  /** A minutes sensor's whole number, 0 when it has none (unavailable, unknown, missing). */
  const minutes = (entityId: string) => {
    const value = Number(byId.get(entityId));
    return Number.isInteger(value) ? value : 0;
  };
  const children: DashboardChild[] = [];
  for (const state of states) {
    const slug = slugOf(state.entity_id, names);
    if (!slug || besides.some((other) => slugOf(state.entity_id, other))) continue;
    const firstName = state.attributes.child_name;
    const top = gaugeTop({
      unlocked: minutes(names.child(slug, "minutes_unlocked")),
      remaining: minutes(state.entity_id),
    });
    children.push({
      slug,
      firstName: typeof firstName === "string" && firstName ? firstName : slug,
      ...(top === undefined ? {} : { gaugeMax: top }),
    });
  }
  children.sort((a, b) => a.firstName.localeCompare(b.firstName) || a.slug.localeCompare(b.slug));
  const mqtt = children.some((child) => ids.has(names.childExtra(child.slug, "read_status")));
  return { children, mode: mqtt ? "mqtt" : "rest" };
}
