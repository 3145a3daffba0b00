import type { HaEvent, HomeAssistantInstance } from "../../lab/index.js";

const bridgeEntity = /^(sensor|binary_sensor)\.reward_facts_/;

export function isBridgeEntity(entityId: unknown): boolean {
  return typeof entityId === "string" && bridgeEntity.test(entityId);
}

/** Forgets every state the bridge wrote, so that the next bridge's first write is a new state. */
export async function deleteBridgeStates(ha: HomeAssistantInstance): Promise<void> {
  const states = await ha.getStates();
  for (const state of states.filter((s) => isBridgeEntity(s.entity_id))) {
    await ha.api("DELETE", `/api/states/${encodeURIComponent(state.entity_id)}`);
  }
}

/** A state_changed event's entity, new state text (null when removed) and instant. */
export function stateChange(event: HaEvent): { entityId: string; state: string | null; at: number } {
  const data = event.data as { entity_id?: string; new_state?: { state?: string } | null };
  return {
    entityId: data.entity_id ?? "",
    state: data.new_state?.state ?? null,
    at: Date.parse(event.time_fired),
  };
}
