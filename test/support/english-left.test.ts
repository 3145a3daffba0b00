import { describe, expect, it } from "vitest";
import { en } from "../../src/ha/texts/en.js";
import { fr } from "../../src/ha/texts/fr.js";
import { englishLeft } from "./english-left.js";

describe("englishLeft", () => {
  it("finds the bridge's English words and raw values, and none of its French", () => {
    expect(englishLeft(`${en.dashboard.minutes_left} 12`)).toEqual(["left"]);
    expect(englishLeft("Léa · Behavior_validated · school")).toEqual([
      "behavior_validated",
      "behavior",
      "validated",
      "school",
    ]);
    expect(englishLeft("Indisponible, Unavailable")).toEqual(["unavailable"]);
    const everyFrenchText = [fr.dashboard, fr.entities, fr.status, fr.reasons]
      .flatMap((part) => Object.values(part))
      .join(" ")
      .replace(/\{[a-z_]+\}/g, "Léa");
    expect(englishLeft(everyFrenchText)).toEqual([]);
  });

  it("counts no word both languages write (names, Home Assistant, Reward Facts)", () => {
    expect(englishLeft("Pont Reward Facts · Home Assistant · Inès · Noah")).toEqual([]);
  });
});
