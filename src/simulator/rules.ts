import type { Period } from "./calendar.js";
import { Rng, uuidFrom } from "./random.js";

// The family's rules as the app would hold them. The spec does not show how the service turns
// points into minutes; this is one plausible reading: tiers of points unlock minutes per day.

export interface BehaviorRule {
  id: string;
  label: string;
  points: number;
  mandatory: boolean;
}

export interface MenuItem {
  id: string;
  label: string;
  /** Minutes of reward the item costs when consumed (0 for a treat that costs no screen time). */
  minutes: number;
}

export interface Tier {
  points: number;
  minutes: number;
}

export interface ChildRules {
  behaviors: readonly BehaviorRule[];
  menu: readonly MenuItem[];
  tiers: readonly Tier[];
}

const mandatoryCatalogue = [
  { slug: "teeth", label: "Se brosser les dents", points: 1 },
  { slug: "homework", label: "Faire ses devoirs", points: 2 },
] as const;

const optionalCatalogue = [
  { slug: "room", label: "Ranger sa chambre", points: 2 },
  { slug: "table", label: "Mettre la table", points: 1 },
  { slug: "reading", label: "Lire 20 minutes", points: 2 },
  { slug: "dress", label: "S'habiller tout seul", points: 1 },
  { slug: "cat", label: "Nourrir le chat", points: 1 },
] as const;

const menuCatalogue = [
  { slug: "film", label: "Choisir le film du soir", minutes: 15 },
  { slug: "dessert", label: "Dessert surprise", minutes: 0 },
  { slug: "story", label: "Une histoire en plus", minutes: 10 },
] as const;

const tiers: readonly Tier[] = [
  { points: 2, minutes: 15 },
  { points: 4, minutes: 30 },
  { points: 6, minutes: 45 },
  { points: 8, minutes: 60 },
];

/** Points a validation without a known behavior earns (a behavior the family added ad hoc). */
export const AD_HOC_POINTS = 1;

/** The rules of one child, derived from the seed and the child's key. */
export function rulesFor(seed: number, childKey: string): ChildRules {
  const rng = Rng.of(seed, "rules", childKey);
  const optional = optionalCatalogue.filter(() => rng.chance(0.6)).slice(0, 3);
  const chosen = [
    ...mandatoryCatalogue.map((b) => ({ ...b, mandatory: true })),
    ...(optional.length > 0 ? optional : optionalCatalogue.slice(0, 2)).map((b) => ({
      ...b,
      mandatory: false,
    })),
  ];
  return {
    behaviors: chosen.map((b) => ({
      id: uuidFrom(seed, childKey, "behavior", b.slug),
      label: b.label,
      points: b.points,
      mandatory: b.mandatory,
    })),
    menu: menuCatalogue.map((m) => ({
      id: uuidFrom(seed, childKey, "menu", m.slug),
      label: m.label,
      minutes: m.minutes,
    })),
    tiers,
  };
}

export function maxPointsOf(rules: ChildRules): number {
  return rules.behaviors.reduce((sum, b) => sum + b.points, 0);
}

export function minutesUnlockedFor(points: number, rules: ChildRules): number {
  return rules.tiers.reduce((best, tier) => (points >= tier.points ? Math.max(best, tier.minutes) : best), 0);
}

/** The next tier above the points, as the API shows it; null at the top. */
export function nextTierFor(
  points: number,
  rules: ChildRules,
): { pointsNeeded: number; unitsGain: number } | null {
  const next = [...rules.tiers].sort((a, b) => a.points - b.points).find((tier) => tier.points > points);
  if (!next) return null;
  return { pointsNeeded: next.points - points, unitsGain: next.minutes - minutesUnlockedFor(points, rules) };
}

export function menuMinutesOf(rules: ChildRules, menuItemId: string | null): number {
  return rules.menu.find((m) => m.id === menuItemId)?.minutes ?? 0;
}

/** On school days rewards wait until the essential behaviors are done. */
export function isConsumable(period: Period, mandatoryOk: boolean, frozen: boolean): boolean {
  return !frozen && (period !== "school" || mandatoryOk);
}
