import { type ChildEntityKind, childEntityDefinitions } from "./catalogue.js";

// The names the bridge gives things in Home Assistant, all from one prefix: the contract's
// `reward_facts` for the bridge (users' automations and dashboards name these ids and this event),
// another for the demo, so that its simulated children never reach an automation of the house.

/** The prefix the contract fixes. */
export const CONTRACT_PREFIX = "reward_facts";

/**
 * The demo's names in Home Assistant: `sensor.reward_facts_demo_lea_minutes_remaining`,
 * `reward_facts_demo_event`. Never the contract's, so that a "TV off" or an announcement
 * listening to the real ones does not run on simulated children. Here, not with the demo: the
 * bridge's removal step and `npm run dashboard` leave the demo's things alone without loading it.
 */
export const DEMO_ENTITY_PREFIX = "reward_facts_demo";

/**
 * The other child entities: the read status (MQTT mode's diagnostic), the journal (event entity),
 * the states the bridge writes itself in both modes, and the buttons.
 */
export type ChildExtraKey = "read_status" | "journal" | RestMadeChildKey | ChildButton;

/** A child's states the bridge writes through REST in both modes (parts/fact-diary.ts, screen-time-week.ts). */
export type RestMadeChildKey = "latest_facts" | "screen_time_days";
export const restMadeChildKeys: readonly RestMadeChildKey[] = ["latest_facts", "screen_time_days"];

/** A child's buttons (MQTT mode): her figures read now, and a test fact for her. */
export type ChildButton = "read_now" | "test_fact";
export const childButtons: readonly ChildButton[] = ["read_now", "test_fact"];

export class EntityNames {
  readonly prefix: string;

  constructor(prefix: string = CONTRACT_PREFIX) {
    // It becomes part of entity ids, an event type and helper ids: Home Assistant's id characters.
    if (!/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/.test(prefix))
      throw new RangeError(`an entity prefix is [a-z0-9_], starts with a letter: ${JSON.stringify(prefix)}`);
    this.prefix = prefix;
  }

  /** `sensor.reward_facts_lea_minutes_remaining`. */
  child(slug: string, kind: ChildEntityKind): string {
    return `${childEntityDefinitions[kind].component}.${this.prefix}_${slug}_${kind}`;
  }

  /** The slug in a child entity's id of `kind` (`lea` of `sensor.reward_facts_lea_points`), if it is one. */
  slugIn(entityId: string, kind: ChildEntityKind): string | undefined {
    const head = `${childEntityDefinitions[kind].component}.${this.prefix}_`;
    const tail = `_${kind}`;
    if (!entityId.startsWith(head) || !entityId.endsWith(tail)) return undefined;
    const slug = entityId.slice(head.length, entityId.length - tail.length);
    return /^[a-z0-9_]+$/.test(slug) ? slug : undefined;
  }

  /** Whether the id is a child's state the bridge writes through REST in both modes, for any slug. */
  isRestMadeChildState(entityId: string): boolean {
    const head = `sensor.${this.prefix}_`;
    return restMadeChildKeys.some((key) => {
      const tail = `_${key}`;
      if (!entityId.startsWith(head) || !entityId.endsWith(tail)) return false;
      return /^[a-z0-9_]+$/.test(entityId.slice(head.length, entityId.length - tail.length));
    });
  }

  /** `sensor.reward_facts_lea_read_status`, `event.reward_facts_lea_journal`. */
  childExtra(slug: string, key: ChildExtraKey): string {
    const sensor = key === "read_status" || (restMadeChildKeys as readonly string[]).includes(key);
    const domain = key === "journal" ? "event" : sensor ? "sensor" : "button";
    return `${domain}.${this.prefix}_${slug}_${key}`;
  }

  /** A sensor of the bridge itself: `sensor.reward_facts_status`, `…_requests_last_minute`. */
  bridge(key: string): string {
    return `sensor.${this.prefix}_${key}`;
  }

  get status(): string {
    return this.bridge("status");
  }

  /** The bus event each fact fires (of the journal, or derived from a child's day). */
  get eventType(): string {
    return `${this.prefix}_event`;
  }

  /** What a child's delivery record (an input_text helper) is named from at creation. */
  get recordPrefix(): string {
    return `${this.prefix}_delivery_`;
  }

  /** The same for the record of the facts derived from her day's readings (delivery-stream.ts). */
  get derivedRecordPrefix(): string {
    return `${this.prefix}_delivery_derived_`;
  }

  /** The id of the helper that says which bridge publishes to this Home Assistant (household-lease.ts). */
  get leaseHelper(): string {
    return `${this.prefix}_bridge_lease`;
  }

  /**
   * Whether an input_text helper is one the bridge made: a child's delivery record (of either
   * stream: its id is slugified from the record prefix, which is a slug already), or the lease.
   */
  isHelper(helperId: string): boolean {
    return helperId === this.leaseHelper || helperId.startsWith(this.recordPrefix);
  }
}

/** The contract's names: the production bridge's, and what DOCS and the tests name. */
export const contractNames = new EntityNames();

/** The contract's id of a child's entity (DOCS, tests); the bridge names through its EntityNames. */
export function childEntityId(slug: string, kind: ChildEntityKind): string {
  return contractNames.child(slug, kind);
}

export const STATUS_ENTITY_ID = contractNames.status;
export const EVENT_TYPE = contractNames.eventType;
