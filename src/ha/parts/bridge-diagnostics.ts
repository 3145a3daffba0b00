import type { ChildRef, EngineStatus, UnavailableReason } from "../../engine/sink.js";
import type { SinkPart } from "./sink-part.js";

// The bridge's own state, redacted, as Home Assistant's "Download diagnostics" of the bridge's
// MQTT device shows it (the integration dumps each entity's attributes: this rides on the status
// entity's). What a person helping with a problem asks first: versions, the request budget, where
// each child's facts stand, and the failures of late. Ids and times only: never a token, a
// password, an address, nor what a fact says (its label, its cheer).

/** Ended spells kept: enough to see a flapping link, small enough for an attribute. */
export const KEPT_SPELLS = 10;

export interface DiagnosticsVersions {
  bridge: string;
  homeAssistant: string | undefined;
}

/** A failure that lasted: the bridge's status away from `ok`, or one child unreadable. */
interface Spell {
  /** The bridge's state (`api_unreachable`, …), or the child's reason (`token_revoked`, …). */
  what: string;
  childId?: string;
  since: number;
  until?: number;
}

interface ChildMark {
  lastFactId?: string;
  lastFactAt?: string;
  deliveredAt?: number;
  readAt?: number;
}

const iso = (at: number | undefined) => (at === undefined ? null : new Date(at).toISOString());

/**
 * Gathers, as the sink sees them, the facts handed on (per child: the last fact's id and time,
 * which is where the bridge's cursor stands once stored), the reads, and the spells of failure;
 * `snapshot` gives them as the attribute. Takes a clock.
 */
export class BridgeDiagnostics implements SinkPart {
  readonly name = "diagnostics";
  readonly #now: () => number;
  readonly #children = new Map<string, ChildMark>();
  readonly #open = new Map<string, Spell>();
  readonly #ended: Spell[] = [];

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A fact reached Home Assistant (or was already there). */
  factDelivered(childId: string, fact: { id: string; at: string }): void {
    const mark = this.#mark(childId);
    mark.lastFactId = fact.id;
    mark.lastFactAt = fact.at;
    mark.deliveredAt = this.#now();
  }

  /** The child's today was read: it is readable, whatever spell it was in ends. */
  childRead(child: { id: string }, _today: unknown, readAt: number): void {
    this.#mark(child.id).readAt = readAt;
    this.#end(`child:${child.id}`);
  }

  childUnavailable(childId: string, reason: UnavailableReason): void {
    this.#begin(`child:${childId}`, { what: reason, childId, since: this.#now() });
  }

  /** The bridge's state as the engine last told it; a spell runs while it is not `ok`. */
  status({ state }: Pick<EngineStatus, "state">): void {
    if (state === "ok" || state === "starting") this.#end("bridge");
    else this.#begin("bridge", { what: state, since: this.#now() });
  }

  snapshot(engine: EngineStatus, versions: DiagnosticsVersions): Record<string, unknown> {
    const spell = (s: Spell) => ({
      what: s.what,
      ...(s.childId ? { child_id: s.childId } : {}),
      since: iso(s.since),
      until: iso(s.until),
    });
    return {
      versions: {
        bridge: versions.bridge,
        node: process.version,
        home_assistant: versions.homeAssistant ?? null,
      },
      budget: {
        requests_last_minute: engine.requestsLastMinute,
        budget_per_minute: engine.budgetPerMinute,
        demand_per_minute: engine.demandPerMinute,
        interval_stretch: engine.stretch,
        today_interval_stretch: engine.todayStretch,
        rate_limited_count: engine.rateLimitedCount,
      },
      children: engine.children.map((child: ChildRef) => {
        const mark = this.#children.get(child.id) ?? {};
        return {
          child_id: child.id,
          last_fact_id: mark.lastFactId ?? null,
          last_fact_at: mark.lastFactAt ?? null,
          delivered_at: iso(mark.deliveredAt),
          read_at: iso(mark.readAt),
        };
      }),
      failing: [...this.#open.values()].map(spell),
      recent_failures: this.#ended.map(spell),
      last_turn_at: iso(engine.lastTurnAt),
    };
  }

  #mark(childId: string): ChildMark {
    let mark = this.#children.get(childId);
    if (!mark) {
      mark = {};
      this.#children.set(childId, mark);
    }
    return mark;
  }

  #begin(key: string, spell: Spell): void {
    const open = this.#open.get(key);
    if (open?.what === spell.what) return;
    if (open) this.#end(key);
    this.#open.set(key, spell);
  }

  #end(key: string): void {
    const open = this.#open.get(key);
    if (!open) return;
    this.#open.delete(key);
    this.#ended.push({ ...open, until: this.#now() });
    if (this.#ended.length > KEPT_SPELLS) this.#ended.shift();
  }
}
