// The MQTT topics of the bridge: discovery under Home Assistant's prefix, everything else under
// `reward_facts/`. A child's topics are named by its id (never its name, which can change).

export const DISCOVERY_PREFIX = "homeassistant";
export const BASE = "reward_facts";
/** Home Assistant's birth and last will. */
export const HOME_ASSISTANT_STATUS = `${DISCOVERY_PREFIX}/status`;
/** The bridge's own availability: `online` once connected, `offline` as its last will. */
export const BRIDGE_AVAILABILITY = `${BASE}/bridge/availability`;
export const BRIDGE_NODE = "reward_facts_bridge";

/** A child's id as a topic level and a node id: `[A-Za-z0-9_-]` only. */
export function childKey(childId: string): string {
  return childId.replace(/[^A-Za-z0-9_-]/g, "_");
}

export function childNode(childId: string): string {
  return `reward_facts_${childKey(childId)}`;
}

export const childTopics = (childId: string) => {
  const base = `${BASE}/${childKey(childId)}`;
  return {
    availability: `${base}/availability`,
    state: (key: string) => `${base}/${key}/state`,
    attributes: (key: string) => `${base}/${key}/attributes`,
    /** The child's event entity: one message per journal fact. */
    journal: `${base}/journal`,
    /** Device triggers, one topic per fact type. */
    trigger: (type: string) => `${base}/trigger/${type}`,
  };
};

export const bridgeTopics = {
  state: (key: string) => `${BASE}/bridge/${key}/state`,
  attributes: (key: string) => `${BASE}/bridge/${key}/attributes`,
};

export function discoveryTopic(component: string, node: string, objectKey: string): string {
  return `${DISCOVERY_PREFIX}/${component}/${node}/${objectKey}/config`;
}
