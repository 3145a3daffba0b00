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
    /** The child's event entity: one message per fact, of the journal or derived. */
    journal: `${base}/journal`,
    /** Device triggers, one topic per fact type. */
    trigger: (type: string) => `${base}/trigger/${type}`,
    /** Where Home Assistant says one of her buttons was pressed. */
    press: (button: string) => `${base}/${button}/press`,
  };
};

export const bridgeTopics = {
  state: (key: string) => `${BASE}/bridge/${key}/state`,
  attributes: (key: string) => `${BASE}/bridge/${key}/attributes`,
};

export function discoveryTopic(component: string, node: string, objectKey: string): string {
  return `${DISCOVERY_PREFIX}/${component}/${node}/${objectKey}/config`;
}

/** Every press of a child's button (`reward_facts/<child key>/<button>/press`). */
export const ALL_PRESSES = `${BASE}/+/+/press`;

/** The child key and button of a press topic; undefined for any other topic. */
export function pressOfTopic(topic: string): { childKey: string; button: string } | undefined {
  const [base, key, button, last, ...more] = topic.split("/");
  if (base !== BASE || last !== "press" || more.length > 0 || !key || !button || key === "bridge")
    return undefined;
  return { childKey: key, button };
}

/** Every discovery config of the house (the bridge keeps the ones of its own nodes). */
export const ALL_DISCOVERY_CONFIGS = `${DISCOVERY_PREFIX}/+/+/+/config`;

/** The node of a discovery config topic, when it is one of the bridge's children. */
export function childNodeOfTopic(topic: string): string | undefined {
  const node = topic.split("/")[2];
  return node?.startsWith("reward_facts_") && node !== BRIDGE_NODE ? node : undefined;
}
