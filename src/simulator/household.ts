import type { Child } from "../api/schemas.js";
import { Rng, tokenFrom, uuidFrom } from "./random.js";
import { type BehaviorRule, type ChildRules, rulesFor } from "./rules.js";
import { dayNumber, type LocalDate } from "./zoned-time.js";

/** The two households the simulator serves: the demo one, and another with its own token. */
export type HouseholdKey = "household" | "other";

export interface SimHousehold {
  readonly key: HouseholdKey;
  readonly token: string;
  revoked: boolean;
}

/**
 * Full custody; independent shared custody where this household has every other day; or, for a
 * while, every day at the other household's (a CalmDay whatever the date: what a test that must
 * not depend on the day's parity, nor on crossing midnight, wants).
 */
export type Custody = { kind: "full" } | { kind: "alternating"; ownParity: 0 | 1 } | { kind: "away" };

export interface SimChild {
  readonly id: string;
  /** Stable name used to derive ids, rules and plans from the seed. */
  readonly key: string;
  /** As the parents wrote it in the app; they may change it (renameChild). */
  firstName: string;
  readonly household: HouseholdKey;
  readonly custody: Custody;
  readonly rules: ChildRules;
  /** Whether the automatic activity writes this child's journal. */
  readonly planned: boolean;
  rulesSynced: boolean;
  movedOut: boolean;
  /** A parent froze her day in the app: no minutes may be used today, whatever she earned. */
  frozen: boolean;
}

/** The demo children by role, as the API lists them. */
export interface DemoChildren {
  /** An ordinary child of the demo household. */
  ordinary: Child;
  /** Independent shared custody: a CalmDay on every other day. */
  custody: Child;
  /** Rules not synced yet: today answers 409. */
  unsynced: Child;
  /** The other household's child (403 with the demo token, and the other way round). */
  other: Child;
}

export interface NewChild {
  household?: HouseholdKey;
  custody?: Custody;
  rulesSynced?: boolean;
  /** Whether the automatic activity fills the journal (default true). */
  planned?: boolean;
  /** Behaviors of the family's own making besides the generated ones (an id of any length, say). */
  moreBehaviors?: readonly BehaviorRule[];
}

/** Households, tokens and children; the mutable state the test hooks change. */
export class Households {
  readonly seed: number;
  readonly #households: Map<HouseholdKey, SimHousehold>;
  readonly #children: SimChild[] = [];
  readonly demo: DemoChildren;

  constructor(seed: number) {
    this.seed = seed;
    this.#households = new Map(
      (["household", "other"] as const).map((key) => [
        key,
        { key, token: tokenFrom(seed, key), revoked: false },
      ]),
    );
    const parity = Rng.of(seed, "custody").chance(0.5) ? 1 : 0;
    this.demo = {
      ordinary: this.#create("ordinary", "Léa", {}),
      custody: this.#create("custody", "Noah", { custody: { kind: "alternating", ownParity: parity } }),
      unsynced: this.#create("unsynced", "Inès", { rulesSynced: false, planned: false }),
      other: this.#create("other", "Jules", { household: "other" }),
    };
  }

  token(key: HouseholdKey): string {
    return this.#household(key).token;
  }

  /** The household a token belongs to, revoked or not. */
  ownerOf(token: string): SimHousehold | undefined {
    return [...this.#households.values()].find((h) => h.token === token);
  }

  setRevoked(token: string, revoked: boolean): void {
    const owner = this.ownerOf(token);
    if (!owner) throw new Error("not a token of this simulator");
    owner.revoked = revoked;
  }

  child(id: string): SimChild {
    const child = this.#children.find((c) => c.id === id);
    if (!child) throw new Error(`no child ${id} in this simulator`);
    return child;
  }

  /** Every child ever created, moved out or not. */
  all(): readonly SimChild[] {
    return this.#children;
  }

  /** The children a household's token lists now. */
  listed(key: HouseholdKey): SimChild[] {
    return this.#children.filter((c) => c.household === key && !c.movedOut);
  }

  /** The child when the household's token covers it, otherwise undefined (a 403). */
  covered(key: HouseholdKey, childId: string): SimChild | undefined {
    return this.listed(key).find((c) => c.id === childId);
  }

  add(firstName: string, options: NewChild = {}): SimChild {
    return this.child(this.#create(`extra-${this.#children.length}`, firstName, options).id);
  }

  #create(key: string, firstName: string, options: NewChild): Child {
    const child: SimChild = {
      id: uuidFrom(this.seed, "child", key),
      key,
      firstName,
      household: options.household ?? "household",
      custody: options.custody ?? { kind: "full" },
      rules: withBehaviors(rulesFor(this.seed, key), options.moreBehaviors ?? []),
      planned: options.planned ?? true,
      rulesSynced: options.rulesSynced ?? true,
      movedOut: false,
      frozen: false,
    };
    this.#children.push(child);
    return { id: child.id, firstName: child.firstName };
  }

  #household(key: HouseholdKey): SimHousehold {
    const household = this.#households.get(key);
    if (!household) throw new Error(`no household ${key}`);
    return household;
  }
}

function withBehaviors(rules: ChildRules, more: readonly BehaviorRule[]): ChildRules {
  return more.length === 0 ? rules : { ...rules, behaviors: [...rules.behaviors, ...more] };
}

/** Whether a date belongs to the child's household: always in full custody, never while away. */
export function isOwnDay(child: SimChild, date: LocalDate): boolean {
  const { custody } = child;
  if (custody.kind === "away") return false;
  return custody.kind === "full" || dayNumber(date) % 2 === custody.ownParity;
}
