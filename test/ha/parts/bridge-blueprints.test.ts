import { describe, expect, it } from "vitest";
import {
  BLUEPRINT_SOURCE,
  blueprintAction,
  blueprintName,
  isAtLeast,
  isBridgeBlueprint,
  minRelease,
  offeredBlueprints,
} from "../../../src/ha/parts/bridge-blueprints.js";
import { readText } from "../../addon/supervisor-rules.js";

// The bridge's choices about its blueprints in Home Assistant, over what Home Assistant lists
// (pure); offered in a real Home Assistant, kept and removed, in bridge-blueprints-ha.test.ts.

const english = offeredBlueprints("en");
const french = offeredBlueprints("fr");
const celebrate = (set: typeof english) => set.find((b) => b.path === "reward_facts_bridge/celebrate.yaml");

describe("the blueprints the bridge offers", () => {
  it("are the add-on's eight, in the household's language, English for a language it has none in", () => {
    expect(english.map((b) => b.path).sort()).toEqual(
      [
        "assist_answers",
        "celebrate",
        "minutes_low",
        "session_ending_warning",
        "session_over",
        "traffic_light",
        "validate_in_app",
        "weekly_digest",
      ].map((file) => `reward_facts_bridge/${file}.yaml`),
    );
    expect(celebrate(english)?.yaml).toBe(
      readText("addon/blueprints/automation/reward_facts/celebrate.yaml"),
    );
    expect(celebrate(french)?.yaml).toBe(
      readText("addon/blueprints/automation/reward_facts_fr/celebrate.yaml"),
    );
    expect(offeredBlueprints("de")).toEqual(english);
  });

  it("each carry their source and a fingerprint of their text", () => {
    expect(celebrate(english)?.sourceUrl).toMatch(
      new RegExp(`^${BLUEPRINT_SOURCE}/automation/reward_facts/celebrate\\.yaml#[0-9a-f]{12}$`),
    );
    expect(celebrate(french)?.sourceUrl).toMatch(/\/reward_facts_fr\/celebrate\.yaml#[0-9a-f]{12}$/);
  });

  it("know their own names from their text", () => {
    expect(blueprintName(celebrate(english)?.yaml ?? "")).toBe(
      "Reward Facts - celebrate a validated behavior or a cheer",
    );
    expect(blueprintName(celebrate(french)?.yaml ?? "")).toMatch(/^Reward Facts - /);
    expect(blueprintName(celebrate(french)?.yaml ?? "")).not.toBe(
      blueprintName(celebrate(english)?.yaml ?? ""),
    );
  });
});

describe("the release each blueprint waits for", () => {
  const digest = english.find((b) => b.path === "reward_facts_bridge/weekly_digest.yaml");

  it("is the one its text asks for: 2024.10, and 2025.6 for the weekly digest (recorder.get_statistics)", () => {
    expect(minRelease(celebrate(english)?.yaml ?? "")).toEqual([2024, 10]);
    expect(minRelease(digest?.yaml ?? "")).toEqual([2025, 6]);
    expect(minRelease(french.find((b) => b.path === digest?.path)?.yaml ?? "")).toEqual([2025, 6]);
    // Every other blueprint of the set reads on 2024.10.
    const waiting = english.filter((b) => minRelease(b.yaml).join(".") !== "2024.10").map((b) => b.path);
    expect(waiting).toEqual(["reward_facts_bridge/weekly_digest.yaml"]);
  });

  it("is compared by year, then month", () => {
    expect(isAtLeast("2025.5.3", [2025, 6])).toBe(false);
    expect(isAtLeast("2025.6.0", [2025, 6])).toBe(true);
    expect(isAtLeast("2025.12.1", [2025, 6])).toBe(true);
    expect(isAtLeast("2026.1.0", [2025, 6])).toBe(true);
    expect(isAtLeast("2024.3.3", [2024, 10])).toBe(false);
    expect(isAtLeast(undefined, [2024, 10])).toBe(false);
  });
});

describe("what the bridge does with one of its blueprints", () => {
  const offered = celebrate(french) as (typeof french)[number];
  const englishOne = celebrate(english) as (typeof english)[number];
  const listed = (name: string | undefined, source: string | undefined) => ({
    metadata: { name, source_url: source },
  });

  it("saves one Home Assistant does not have, leaves the same text alone", () => {
    expect(blueprintAction(offered, undefined)).toBe("save");
    expect(blueprintAction(offered, listed(blueprintName(offered.yaml), offered.sourceUrl))).toBe("none");
  });

  it("updates an earlier text of its own, in any language (an upgrade, the household's language changed)", () => {
    expect(blueprintAction(offered, listed(blueprintName(englishOne.yaml), englishOne.sourceUrl))).toBe(
      "update",
    );
    expect(
      blueprintAction(
        offered,
        listed(
          blueprintName(offered.yaml),
          `${BLUEPRINT_SOURCE}/automation/reward_facts_fr/celebrate.yaml#000000000000`,
        ),
      ),
    ).toBe("update");
  });

  it("leaves one a person changed: renamed, another source, or unreadable", () => {
    expect(blueprintAction(offered, listed("Our own celebration", englishOne.sourceUrl))).toBe("leave");
    expect(
      blueprintAction(offered, listed(blueprintName(offered.yaml), "https://example.com/mine.yaml")),
    ).toBe("leave");
    expect(blueprintAction(offered, listed(blueprintName(offered.yaml), undefined))).toBe("leave");
    expect(blueprintAction(offered, { error: "Invalid blueprint" })).toBe("leave");
  });
});

describe("which blueprints are the bridge's own", () => {
  const offered = celebrate(french) as (typeof french)[number];
  const name = blueprintName(offered.yaml);

  it("in its folder, from its source, with a name it gave", () => {
    expect(isBridgeBlueprint(offered.path, { metadata: { name, source_url: offered.sourceUrl } })).toBe(true);
    expect(
      isBridgeBlueprint("reward_facts/celebrate.yaml", { metadata: { name, source_url: offered.sourceUrl } }),
    ).toBe(false);
    expect(
      isBridgeBlueprint(offered.path, { metadata: { name: "Mine", source_url: offered.sourceUrl } }),
    ).toBe(false);
    expect(
      isBridgeBlueprint(offered.path, { metadata: { name, source_url: "https://example.com/x.yaml" } }),
    ).toBe(false);
    expect(isBridgeBlueprint(offered.path, { error: "unreadable" })).toBe(false);
  });
});
