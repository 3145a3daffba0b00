import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { anchorsOf } from "./markdown.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// addon/quality_scale.md: every rule of Home Assistant's Integration Quality Scale, as core's
// script/hassfest/quality_scale.py lists them, with the bridge's answer. Nothing at bronze, silver
// or gold left to do, and every file a rule says it is met in exists.

const tiers = {
  bronze: [
    "action-setup",
    "appropriate-polling",
    "brands",
    "common-modules",
    "config-flow",
    "config-flow-test-coverage",
    "dependency-transparency",
    "docs-actions",
    "docs-conditions",
    "docs-high-level-description",
    "docs-installation-instructions",
    "docs-removal-instructions",
    "docs-triggers",
    "entity-event-setup",
    "entity-unique-id",
    "has-entity-name",
    "runtime-data",
    "test-before-configure",
    "test-before-setup",
    "unique-config-entry",
  ],
  silver: [
    "action-exceptions",
    "config-entry-unloading",
    "docs-configuration-parameters",
    "docs-installation-parameters",
    "entity-unavailable",
    "integration-owner",
    "log-when-unavailable",
    "parallel-updates",
    "reauthentication-flow",
    "test-coverage",
  ],
  gold: [
    "devices",
    "diagnostics",
    "discovery",
    "discovery-update-info",
    "docs-data-update",
    "docs-examples",
    "docs-known-limitations",
    "docs-supported-devices",
    "docs-supported-functions",
    "docs-troubleshooting",
    "docs-use-cases",
    "dynamic-devices",
    "entity-category",
    "entity-device-class",
    "entity-disabled-by-default",
    "entity-translations",
    "exception-translations",
    "icon-translations",
    "reconfiguration-flow",
    "repair-issues",
    "stale-devices",
  ],
  platinum: ["async-dependency", "inject-websession", "strict-typing"],
} as const;

interface Rule {
  status: "done" | "exempt" | "todo";
  comment?: string;
  where?: string[];
}

const text = readText("addon/quality_scale.md");
const block = /```yaml\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
const rules = (parse(block) as { rules: Record<string, Rule | Rule["status"]> }).rules;
const ruleOf = (name: string): Rule | undefined => {
  const rule = rules[name];
  return typeof rule === "string" ? { status: rule } : rule;
};

describe("addon/quality_scale.md", () => {
  it("has every rule of the scale, and none besides (54)", () => {
    const all = Object.values(tiers).flat();
    expect(all).toHaveLength(54);
    expect(Object.keys(rules).sort()).toEqual([...all].sort());
  });

  it.each([...tiers.bronze, ...tiers.silver, ...tiers.gold])(
    "leaves nothing to do at %s (bronze to gold)",
    (name) => {
      const rule = ruleOf(name);
      expect(rule?.status, name).toMatch(/^(done|exempt)$/);
      if (rule?.status === "exempt") expect(rule.comment, `${name}: the reason`).toBeTruthy();
      if (rule?.status === "done") expect(rule.where ?? [], `${name}: where`).not.toEqual([]);
    },
  );

  it("says test-coverage at the figure npm test gates, beside the rule's own (above 95 %)", () => {
    const gate = Number(/thresholds:\s*\{\s*lines:\s*(\d+)/.exec(readText("test/vitest.config.ts"))?.[1]);
    expect(gate).toBeGreaterThanOrEqual(95);
    expect(ruleOf("test-coverage")?.comment).toContain(`under ${gate} %`);
    expect(ruleOf("test-coverage")?.comment).toContain(
      "above 95 % test coverage for all integration modules",
    );
  });

  it("exempts repair-issues, which an app cannot raise, naming the notifications as the analog", () => {
    // Home Assistant's issue registry is written from inside Core only: no websocket or REST
    // command creates a repair, so `done` would promise what no app can do.
    const rule = ruleOf("repair-issues");
    expect(rule?.status).toBe("exempt");
    expect(rule?.comment).toMatch(/cannot raise a repair/);
    expect(rule?.comment).toMatch(/persistent notification/);
  });

  it("points each done rule at files that exist, and at sections that exist in them", () => {
    const missing: string[] = [];
    for (const [name] of Object.entries(rules)) {
      const rule = ruleOf(name);
      for (const place of rule?.where ?? []) {
        const [file = "", section] = place.split("#");
        if (!existsSync(join(repoRoot, file))) missing.push(`${name}: ${file}`);
        else if (section) {
          if (!anchorsOf(file).includes(section)) missing.push(`${name}: ${place}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
