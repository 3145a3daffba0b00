import { describe, expect, it } from "vitest";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";
import { assistantItems, canonical } from "../../../src/ha/parts/assist-answers.js";
import {
  assistAnswersAutomation,
  oldAutomationSyntax,
  QUESTIONS,
} from "../../../src/ha/parts/assist-answers-config.js";
import { assistSummaryScript } from "../../../src/ha/parts/assist-summary-config.js";
import { voiceChildren } from "../../../src/ha/parts/voice-children.js";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";

const children = voiceChildren(
  [
    { id: "c1", firstName: "Léa", slug: "lea" },
    { id: "c2", firstName: 'Zo{{ 7 * 7 }}"é', slug: "zoe" },
  ],
  contractNames,
  "mqtt",
);
const input = (texts = en) => ({
  texts,
  children,
  status: "sensor.reward_facts_status",
  staleAfterSeconds: 180,
});

describe("the automation the bridge keeps for Assist", () => {
  it("hears every question and its 'I' form in the household's language", () => {
    for (const texts of [en, fr]) {
      const automation = assistAnswersAutomation(input(texts));
      const triggers = automation.triggers as Array<{ trigger: string; id: string; command: string[] }>;
      expect(triggers.map((trigger) => trigger.id)).toEqual(QUESTIONS.flatMap((q) => [q, `${q}_i`]));
      expect(triggers.every((trigger) => trigger.trigger === "conversation")).toBe(true);
      expect(triggers.find((trigger) => trigger.id === "minutes_i")?.command).not.toContainEqual(
        expect.stringContaining("{child}"),
      );
      expect(
        triggers.find((trigger) => trigger.id === "can")?.command.every((c) => c.includes("{child}")),
      ).toBe(true);
      expect(automation.alias).toBe(texts.voice.automation_name);
    }
    expect(assistAnswersAutomation(input(fr)).triggers).toContainEqual(
      expect.objectContaining({
        id: "can",
        command: expect.arrayContaining(["{child} peut-elle regarder la télé"]),
      }),
    );
  });

  it("gives Home Assistant the children as data, never as template text", () => {
    const [data] = (assistAnswersAutomation(input()).actions as Array<{ variables?: { data: string } }>)
      .map((action) => action.variables?.data)
      .filter(Boolean);
    // One Jinja string literal, decoded by from_json: a `{{` in a name is not rendered.
    const literal = /^\{\{ (".*") \| from_json \}\}$/s.exec(String(data))?.[1];
    expect(literal).toBeDefined();
    const decoded = JSON.parse(JSON.parse(literal as string)) as {
      children: Array<{ name: string }>;
      stale_after: number;
    };
    expect(decoded.children.map((child) => child.name)).toEqual(["Léa", 'Zo{{ 7 * 7 }}"é']);
    expect(decoded.stale_after).toBe(180);
  });

  it("is spelled the older way for releases before 2024.10", () => {
    const old = oldAutomationSyntax(assistAnswersAutomation(input()));
    expect(old).not.toHaveProperty("triggers");
    expect(old).not.toHaveProperty("actions");
    expect((old.trigger as Array<Record<string, unknown>>)[0]).toMatchObject({
      platform: "conversation",
      id: "minutes",
    });
    expect(old.action).toEqual(assistAnswersAutomation(input()).actions);
  });
});

describe("the summary script the bridge keeps for assistants", () => {
  it("takes an optional child, answers with a response, and is described for an assistant", () => {
    const script = assistSummaryScript(input(fr));
    expect(script.description).toBe(fr.voice.summary_description);
    expect(script.fields).toMatchObject({ child: { required: false } });
    const sequence = script.sequence as Array<Record<string, unknown>>;
    expect(sequence.at(-1)).toMatchObject({ response_variable: "summary" });
  });
});

describe("what the bridge keeps for Assist, by naming", () => {
  it("names its automation and script by the prefix (the demo's apart), and compares them whatever the key order", () => {
    expect(assistantItems(contractNames)).toEqual([
      ["automation", "reward_facts_assist_answers"],
      ["script", "reward_facts_summary"],
    ]);
    expect(assistantItems(new EntityNames("reward_facts_demo"))[1]).toEqual([
      "script",
      "reward_facts_demo_summary",
    ]);
    expect(canonical({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 3 } })).toBe(
      canonical({ a: { c: 3, d: [2, { e: 0, f: 1 }] }, b: 1 }),
    );
    expect(canonical({ a: [1, 2] })).not.toBe(canonical({ a: [2, 1] }));
  });
});
