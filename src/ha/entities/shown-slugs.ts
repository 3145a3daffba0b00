import type { ChildRef } from "../../engine/sink.js";
import type { CommandLink } from "../link/command-link.js";
import type { EntityNames } from "./entity-names.js";

interface RegistryEntry {
  entity_id: string;
  unique_id: string;
}

interface PublishedState {
  entity_id: string;
  attributes: Record<string, unknown>;
}

/**
 * The slugs Home Assistant already shows of these children, from an earlier run of the bridge:
 * from the entity id of their minutes remaining, a registry entity (found by its unique id, which
 * `uniqueIdOf` gives, in MQTT mode) or a state the REST mode wrote (found by its `child_id`).
 */
export async function slugsShown(
  link: CommandLink,
  names: EntityNames,
  uniqueIdOf: (childId: string) => string | undefined,
  children: readonly ChildRef[],
): Promise<Map<string, string>> {
  const [registry, states] = await Promise.all([
    link.command<RegistryEntry[]>({ type: "config/entity_registry/list" }),
    link.command<PublishedState[]>({ type: "get_states" }),
  ]);
  const kind = "minutes_remaining";
  const shown = new Map<string, string>();
  for (const child of children) {
    const uniqueId = uniqueIdOf(child.id);
    const registered = uniqueId ? registry.find((entry) => entry.unique_id === uniqueId) : undefined;
    const written = states.find(
      (state) => state.attributes.child_id === child.id && names.slugIn(state.entity_id, kind),
    );
    const slug = names.slugIn(registered?.entity_id ?? written?.entity_id ?? "", kind);
    if (slug) shown.set(child.id, slug);
  }
  return shown;
}
