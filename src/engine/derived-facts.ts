import { createHash } from "node:crypto";
import type { ApiEvent } from "../api/schemas.js";

// Facts the API's journal does not carry but a parent acts on, worked out from two successive
// readings of a child's today (derivation.ts), and delivered exactly as journal facts are.

export const derivedFactTypes = [
  "behavior_declared",
  "behavior_rejected",
  "minutes_low",
  "session_ended",
  "mandatory_done",
  "perfect_day",
  "streak_extended",
  "streak_broken",
  "next_tier_reached",
  "day_started",
] as const;
export type DerivedFactType = (typeof derivedFactTypes)[number];

interface DerivedCommon {
  derived: true;
  /** Built from the child, the household's day, the kind and its subject: the same fact, the same id. */
  id: string;
  childId: string;
  /** The household's day it belongs to (today's `date`). */
  day: string;
  /** When it happened, as far as the readings tell (ISO 8601). */
  at: string;
}

export type DerivedFact = DerivedCommon &
  (
    | {
        type: "behavior_declared" | "behavior_rejected";
        behaviorId: string;
        label: string;
        mandatory: boolean;
      }
    | { type: "minutes_low"; minutesRemaining: number; threshold: number }
    | { type: "session_ended"; sessionMinutes: number | null }
    | { type: "mandatory_done" | "perfect_day" }
    | { type: "streak_extended" | "streak_broken"; streak: number; previousStreak: number }
    | { type: "next_tier_reached"; points: number; unitsGain: number }
    | { type: "day_started"; period: string; minutesUnlocked: number }
  );

/** A fact on its way to the sink: from the journal, or worked out from today's readings. */
export type Fact = ApiEvent | DerivedFact;

export function isDerived(fact: Fact): fact is DerivedFact {
  return "derived" in fact && fact.derived === true;
}

/**
 * The longest id a fact may have: Home Assistant's delivery record (an input_text) holds 255
 * characters, and a fact it cannot record would be sent again, unmarked, after a crash.
 */
export const MAX_FACT_ID_LENGTH = 255;

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

/**
 * `derived:<child>:<day>:<kind>:<subject>`: never an id of the journal's (those are UUIDs). A
 * subject that would make it too long for the record (a behavior's id of the app's choosing) is
 * replaced by its digest, `#<32 hex>`, and the whole id by its own when even that is too long: the
 * same fact still has the same id.
 */
export function derivedFactId(childId: string, day: string, type: DerivedFactType, subject: string): string {
  const plain = `derived:${childId}:${day}:${type}:${subject}`;
  if (plain.length <= MAX_FACT_ID_LENGTH) return plain;
  const hashed = `derived:${childId}:${day}:${type}:#${digest(subject)}`;
  return hashed.length <= MAX_FACT_ID_LENGTH ? hashed : `derived:#${digest(plain)}`;
}
