// The entities the bridge publishes, once, for both ways of publishing them (REST-made states and
// MQTT discovery): ids as the contract fixes them, icons, device and state classes, units. Their
// names are in the household's language (texts/).

export type ChildEntityKind =
  | "minutes_remaining"
  | "minutes_unlocked"
  | "minutes_consumed"
  | "points"
  | "streak"
  | "session_ends_at"
  | "session_running"
  | "my_day"
  | "period"
  | "consumable_today"
  | "mandatory_ok"
  | "behaviors"
  | "screen_time_allowed";

export interface EntityDefinition {
  component: "sensor" | "binary_sensor";
  icon: string;
  deviceClass?: string;
  unit?: string;
  /**
   * How Home Assistant's recorder makes statistics of it: `measurement` (mean, min, max) or
   * `total_increasing` (a sum, a drop read as a reset).
   */
  stateClass?: "measurement" | "total_increasing";
  /** The states of an enum sensor. */
  options?: readonly string[];
}

const minutes = { deviceClass: "duration", unit: "min", stateClass: "measurement" } as const;

export const childEntityDefinitions: Record<ChildEntityKind, EntityDefinition> = {
  minutes_remaining: { component: "sensor", icon: "mdi:timer-sand", ...minutes },
  minutes_unlocked: {
    component: "sensor",
    icon: "mdi:lock-open-variant",
    ...minutes,
  },
  // Drops to 0 at the household's midnight, and only then: a reset, so the recorder sums the
  // minutes used per day, week or month. Unlocked minutes and points stay measurements: they can
  // drop mid-day (a validation undone in the app), which a sum would misread as a reset.
  minutes_consumed: {
    component: "sensor",
    icon: "mdi:timer-check",
    ...minutes,
    stateClass: "total_increasing",
  },
  points: { component: "sensor", icon: "mdi:star-circle", stateClass: "measurement" },
  streak: { component: "sensor", icon: "mdi:fire", unit: "d", stateClass: "measurement" },
  session_ends_at: {
    component: "sensor",
    icon: "mdi:timer-alert",
    deviceClass: "timestamp",
  },
  session_running: {
    component: "binary_sensor",
    icon: "mdi:television-play",
    deviceClass: "running",
  },
  my_day: { component: "binary_sensor", icon: "mdi:home-heart" },
  period: {
    component: "sensor",
    icon: "mdi:calendar-today",
    deviceClass: "enum",
    options: ["school", "holiday", "weekend"],
  },
  consumable_today: { component: "binary_sensor", icon: "mdi:gamepad-variant" },
  mandatory_ok: { component: "binary_sensor", icon: "mdi:check-decagram" },
  // The behaviors validated today: back to 0 at the household's midnight, so summed like the
  // minutes used, which gives the week's count (the weekly_digest blueprint reads it). A
  // validation undone in the app is a drop, read as a reset: that day's are then counted twice.
  behaviors: { component: "sensor", icon: "mdi:format-list-checks", stateClass: "total_increasing" },
  screen_time_allowed: { component: "binary_sensor", icon: "mdi:television-classic" },
};

export const childEntityKinds = Object.keys(childEntityDefinitions) as ChildEntityKind[];

export const statusDefinition: EntityDefinition = {
  component: "sensor",
  icon: "mdi:bridge",
};

/** What Home Assistant reads from a state's attributes to type it (REST-made states carry them). */
export function classAttributes(definition: EntityDefinition): Record<string, unknown> {
  return {
    ...(definition.deviceClass ? { device_class: definition.deviceClass } : {}),
    ...(definition.unit ? { unit_of_measurement: definition.unit } : {}),
    ...(definition.stateClass ? { state_class: definition.stateClass } : {}),
    ...(definition.options ? { options: [...definition.options] } : {}),
  };
}

/**
 * The bridge's own entities, by key (names.bridge(key) gives the id): here rather than with MQTT's
 * discovery, since the removal step (a REST-mode run too) knows them without loading MQTT's code.
 */
export const bridgeEntityKeys = [
  "status",
  "requests_last_minute",
  "budget_per_minute",
  "interval_stretch",
  "last_error",
] as const;
export type BridgeEntityKey = (typeof bridgeEntityKeys)[number];
