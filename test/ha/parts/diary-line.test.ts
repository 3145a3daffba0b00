import { describe, expect, it } from "vitest";
import type { ApiEvent } from "../../../src/api/schemas.js";
import { diaryEntryOf, diaryLine } from "../../../src/ha/parts/diary-line.js";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";

const common = { id: "e1", at: "2026-11-21T15:42:00Z", day: "2026-11-21", childId: "c1" };
const line = (texts: typeof en, fact: ApiEvent) => diaryLine(texts, "Léa", diaryEntryOf(fact));

describe("a fact as the diary reads it", () => {
  it.each([
    [
      { ...common, type: "behavior_validated", behaviorId: "b1", label: "Faire ses devoirs" },
      "Léa : « Faire ses devoirs » validé",
      "Léa: “Faire ses devoirs” validated",
    ],
    [
      { ...common, type: "behavior_validated", behaviorId: null, label: null },
      "Léa : Un comportement validé",
      "Léa: A behavior validated",
    ],
    [
      { ...common, type: "session_started", minutes: 20 },
      "Léa : Une session de 20 minutes commencée",
      "Léa: A 20-minute session started",
    ],
    [
      { ...common, type: "session_started", minutes: 0 },
      "Léa : Une session commencée",
      "Léa: A session started",
    ],
    [
      { ...common, type: "menu_item_consumed", menuItemId: "m1", label: "Dessin animé" },
      "Léa : « Dessin animé » utilisé",
      "Léa: “Dessin animé” used",
    ],
    [
      { ...common, type: "menu_item_consumed", menuItemId: null, label: "  " },
      "Léa : Une récompense utilisée",
      "Léa: A reward used",
    ],
    [
      { ...common, type: "cheer_sent", cheer: "super" },
      "Léa : Un encouragement : Super !",
      "Léa: A cheer: Super!",
    ],
  ] as const)("%j", (fact, french, english) => {
    expect(line(fr, fact as ApiEvent)).toBe(french);
    expect(line(en, fact as ApiEvent)).toBe(english);
  });

  it("keeps the fact's own time and the family's words as words, never as placeholders", () => {
    const fact: ApiEvent = {
      ...common,
      type: "behavior_validated",
      behaviorId: null,
      label: "{child} {{ 7 * 7 }}",
    };
    expect(diaryEntryOf(fact).at).toBe(common.at);
    expect(line(fr, fact)).toBe("Léa : « {child} {{ 7 * 7 }} » validé");
  });
});
