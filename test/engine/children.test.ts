import { describe, expect, it } from "vitest";
import { foldName } from "../../src/engine/children.js";

// The `children` option names children as a parent types them: "Léa", "lea" and "LEA" are one
// child, and so are names whose letters carry no separable accent (ø, ß, ł…), which a keyboard
// without them spells out.

describe("foldName", () => {
  it("drops accents and case, and trims", () => {
    expect(foldName("  Léa ")).toBe("lea");
    expect(foldName("INÈS")).toBe("ines");
  });

  it("spells out the letters that have no accent to drop", () => {
    expect(foldName("Søren")).toBe("soren");
    expect(foldName("Łukasz")).toBe("lukasz");
    expect(foldName("Æsa")).toBe("aesa");
    expect(foldName("Strauß")).toBe("strauss");
    expect(foldName("Þóra")).toBe("thora");
  });
});
