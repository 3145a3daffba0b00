import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { ApiEventType } from "../../src/api/schemas.js";
import { apiEventTypes } from "../../src/api/schemas.js";
import { environmentNames } from "../../src/config/load-config.js";
import { optionsSchema } from "../../src/config/options-schema.js";
import { type DerivedFactType, derivedFactTypes, type Fact } from "../../src/engine/derived-facts.js";
import type { BridgeState } from "../../src/engine/sink.js";
import { reasonText, unavailableReasonKinds } from "../../src/engine/unavailable-reason.js";
import { childSection } from "../../src/ha/dashboard/child-sections.js";
import { EVENT_TYPE, eventData } from "../../src/ha/delivery/event-data.js";
import {
  type ChildIdentity,
  childEntities,
  childEntityId,
  childEntityKinds,
  STATUS_ENTITY_ID,
  statusEntity,
  unavailableChildEntities,
} from "../../src/ha/entities/entities.js";
import { contractNames } from "../../src/ha/entities/entity-names.js";
import { BROKER_NOTIFICATION_ID, TOKEN_NOTIFICATION_ID } from "../../src/ha/index.js";
import { en } from "../../src/ha/texts/en.js";
import { sampleCalmDay, sampleToday } from "../support/facts.js";
import { anchor, anchorsOf, docPages, prose, repositoryLinks } from "./markdown.js";
import { readText, repoRoot } from "./supervisor-rules.js";

// DOCS.md and the pages it links against the code: every list here comes from the code, so a new
// option, entity, attribute, event field or status shows up as a documentation gap. DOCS.md is
// what a parent reads in the Documentation tab; the details live on its pages, each checked where
// it lives.

const docs = readText("addon/DOCS.md");
const mentions = (name: string, text = docs) => text.includes(`\`${name}\``);
const entitiesPage = readText("addon/docs/entities.md");
const troubleshootingPage = readText("addon/docs/troubleshooting.md");
const dashboardPage = readText("addon/docs/dashboard.md");
const blueprintsPage = readText("addon/docs/blueprints.md");
/**
 * The Documentation tab shows DOCS.md whole: a parent reads it there (peers' are 3 to 12 KB), in
 * one language, so the cap holds for each language's part.
 */
const DOCS_MAX_BYTES = 15_500;

/**
 * DOCS in French, for the parents who read it in French (issue 56): below the English, under one
 * heading, since the tab follows no link to another file. A line at the top points to it.
 */
const FRENCH_TITLE = "En français";
const frenchStart = docs.search(new RegExp(`^## ${FRENCH_TITLE}$`, "m"));
/** The line of DOCS' top (its first 5) that links to the French part; it is French, counted there. */
const frenchPointer = docs
  .split("\n")
  .slice(0, 5)
  .find((line) => line.includes(`](#${anchor(FRENCH_TITLE)})`));
/** Everything before the French heading, but the pointer to it. */
const english = (frenchStart < 0 ? docs : docs.slice(0, frenchStart)).replace(`${frenchPointer}\n`, "");
/** From the French heading to the end. */
const french = frenchStart < 0 ? "" : docs.slice(frenchStart);
const headingsOf = (text: string, level: string) =>
  [...prose(text).matchAll(new RegExp(`^${level} (.+)$`, "gm"))].map((m) => (m[1] as string).trim());
/** The French part's subsections, one for each of the parent's sections of the English. */
const frenchSections = {
  installation: "Installer l'add-on",
  options: "Les options",
  "what appears": "Ce qui apparaît dans Home Assistant",
  blueprints: "Les blueprints",
  Assist: "Demander à Assist",
  removal: "Retirer le pont",
  troubleshooting: "En cas de problème",
};
/** A `###` subsection of the French part, up to the next `###` or higher heading. */
const frenchSection = (title: string) =>
  french.split(/^(?=#{1,3} )/m).find((part) => part.startsWith(`### ${title}\n`)) ?? "";

/** Every status the status sensor can show; the type makes the record complete. */
const statusStates: Record<BridgeState | "ha_degraded" | "broker_refused", true> = {
  starting: true,
  ok: true,
  token_invalid: true,
  rate_limited: true,
  api_unreachable: true,
  stopped: true,
  ha_degraded: true,
  broker_refused: true,
};

const child: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const myDay = sampleToday;
const calmDay = sampleCalmDay;

const common = { id: "e1", at: "2026-11-21T16:02:11Z", day: "2026-11-21", childId: child.id };
const derived = { ...common, derived: true as const };
const sampleFacts: Record<ApiEventType | DerivedFactType, Fact> = {
  behavior_validated: { ...common, type: "behavior_validated", behaviorId: "b1", label: "Homework" },
  session_started: { ...common, type: "session_started", minutes: 20 },
  menu_item_consumed: { ...common, type: "menu_item_consumed", menuItemId: "m1", label: "Film" },
  cheer_sent: { ...common, type: "cheer_sent", cheer: "bravo" },
  behavior_declared: {
    ...derived,
    type: "behavior_declared",
    behaviorId: "b1",
    label: "Homework",
    mandatory: true,
  },
  behavior_rejected: {
    ...derived,
    type: "behavior_rejected",
    behaviorId: "b1",
    label: "Homework",
    mandatory: true,
  },
  minutes_low: { ...derived, type: "minutes_low", minutesRemaining: 9, threshold: 10 },
  session_ended: { ...derived, type: "session_ended", sessionMinutes: 30 },
  mandatory_done: { ...derived, type: "mandatory_done" },
  perfect_day: { ...derived, type: "perfect_day" },
  streak_extended: { ...derived, type: "streak_extended", streak: 5, previousStreak: 4 },
  streak_broken: { ...derived, type: "streak_broken", streak: 0, previousStreak: 4 },
  next_tier_reached: { ...derived, type: "next_tier_reached", points: 5, unitsGain: 15 },
  day_started: { ...derived, type: "day_started", period: "school", minutesUnlocked: 30 },
};

/** addon/docs/events.md: its opening (the keys every event has) and a section per type. */
const eventsPage = (() => {
  const text = readText("addon/docs/events.md");
  const parts = text.split(/^## /m);
  return {
    common: parts[0] ?? "",
    section: (type: string) => parts.find((part) => part.startsWith(`\`${type}\``)),
  };
})();

const yamlOf = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);
const yamlBlocks = yamlOf(docs);

describe("DOCS.md", () => {
  it.each([
    ["English", english],
    ["French", french],
  ])(
    `keeps its %s part short enough to read in the Documentation tab (at most ${DOCS_MAX_BYTES} bytes)`,
    (_, part) => {
      expect(part.length).toBeGreaterThan(0);
      expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(DOCS_MAX_BYTES);
    },
  );

  it("links to its French part from its top, a line that reads well even where the link does not jump", () => {
    expect(anchor(FRENCH_TITLE)).toBe("en-français");
    expect(french.startsWith(`## ${FRENCH_TITLE}\n`)).toBe(true);
    expect(frenchPointer).toBeDefined();
    expect(frenchPointer).toContain("[la documentation pour les parents en français](#en-français)");
    expect(frenchPointer).toContain("plus bas sur cette page");
    // After the title, before the English begins.
    expect(docs.indexOf(frenchPointer as string)).toBeLessThan(docs.indexOf("Children earn"));
  });

  it.each(Object.entries(frenchSections))("gives the French part a section on %s (### %s)", (_, title) => {
    expect(headingsOf(french, "###")).toContain(title);
    expect(frenchSection(title).length, title).toBeGreaterThan(200);
  });

  it("leaves no English heading in the French part, and gives no two headings the same anchor", () => {
    const englishHeadings = headingsOf(english, "#{2,6}").map((heading) => heading.toLowerCase());
    const frenchHeadings = headingsOf(french, "#{2,6}").map((heading) => heading.toLowerCase());
    expect(englishHeadings.length).toBeGreaterThanOrEqual(10);
    expect(frenchHeadings.filter((heading) => englishHeadings.includes(heading))).toEqual([]);
    // GitHub numbers a repeated heading's anchor, which links here would not reach.
    const anchors = anchorsOf("addon/DOCS.md");
    expect(anchors.filter((name, i) => anchors.indexOf(name) !== i)).toEqual([]);
  });

  it.each(Object.keys(optionsSchema.shape))("names the option %s in the French part's table too", (key) => {
    const table = frenchSection(frenchSections.options);
    expect(table.split("\n").some((line) => line.startsWith(`| \`${key}\` |`))).toBe(true);
  });

  it("tells in French that Assist hands the children's names and figures to the conversation agent, cloud ones too, and how to keep it home", () => {
    // Whatever the line breaks.
    const assist = frenchSection(frenchSections.Assist).replace(/\s+/g, " ");
    expect(assist).toContain(
      "donner les prénoms des enfants et leurs chiffres (minutes, points, série, session) à l'agent de conversation du foyer, quel qu'il soit, y compris un agent dans le cloud",
    );
    expect(assist).toContain("mettez `assist` à `false`");
    expect(assist).toContain("utilisez un agent local");
  });

  it("tells in English, and in the `assist` option's description in both languages, that Assist hands the children's names and figures to the conversation agent, cloud ones too, and how to keep it home", () => {
    // Whatever the line breaks.
    const flat = (text: string) => text.replace(/\s+/g, " ");
    expect(flat(english)).toContain(
      "hands the children's first names and figures (minutes, points, streak, session) to whichever conversation agent the household uses, cloud ones included",
    );
    expect(flat(english)).toContain("set `assist` to `false`");
    expect(flat(english)).toContain("use a local agent");
    // Where a parent turns it on or off: the option's own description, on the Configuration tab.
    type Translation = { configuration: Record<string, { description: string }> };
    const described = (language: string) =>
      flat(
        String(
          (parse(readText(`addon/translations/${language}.yaml`)) as Translation).configuration.assist
            ?.description,
        ),
      );
    expect(described("en")).toContain(
      "hands the children's first names and figures to whichever conversation agent the household uses, cloud ones included",
    );
    expect(described("en")).toContain("turn this off before the first start, or use a local agent");
    expect(described("fr")).toContain(
      "donne les prénoms des enfants et leurs chiffres à l'agent de conversation du foyer, quel qu'il soit, y compris un agent dans le cloud",
    );
    expect(described("fr")).toContain("désactivez-le avant le premier démarrage, ou utilisez un agent local");
  });

  it("links only to files and sections that exist, from DOCS, its pages and README", () => {
    const broken: string[] = [];
    const links = [...docPages(), "README.md"].flatMap(repositoryLinks);
    for (const link of links) {
      if (!existsSync(join(repoRoot, link.file))) broken.push(`${link.from}: ${link.target} (no file)`);
      else if (link.section !== undefined && !anchorsOf(link.file).includes(link.section))
        broken.push(`${link.from}: ${link.target} (no such section)`);
    }
    expect(broken).toEqual([]);
    // DOCS links each of its pages, so that none is left unread.
    const linked = new Set(repositoryLinks("addon/DOCS.md").map((link) => link.file));
    expect(docPages().filter((page) => page !== "addon/DOCS.md" && !linked.has(page))).toEqual([]);
  });

  it.each(Object.keys(optionsSchema.shape))("documents the option %s and its environment variable", (key) => {
    expect(mentions(key, english)).toBe(true);
    expect(mentions(environmentNames[key as keyof typeof environmentNames], english)).toBe(true);
  });

  it.each([
    ["English", english],
    ["French", french],
  ])("gives each option's default as the bridge has it (%s)", (_, part) => {
    const defaults = optionsSchema.parse({ api_token: "rf_api_x", api_base_url: "https://a.example" });
    for (const [key, value] of Object.entries(defaults)) {
      if (key === "api_token" || key === "api_base_url") continue;
      const row = part.split("\n").find((line) => line.startsWith(`| \`${key}\` |`));
      expect(row, key).toContain(`\`${JSON.stringify(value).replace(/^"|"$/g, "")}\``);
    }
  });

  it.each(childEntityKinds)("documents the entity of kind %s (the entities page)", (kind) => {
    expect(mentions(childEntityId("<child>", kind), entitiesPage)).toBe(true);
  });

  it("documents the status sensor and every state it can show (DOCS' tables, in both languages, the troubleshooting page)", () => {
    expect(mentions(STATUS_ENTITY_ID, english)).toBe(true);
    expect(mentions(STATUS_ENTITY_ID, french)).toBe(true);
    for (const state of Object.keys(statusStates)) {
      expect(english, state).toContain(`| \`${state}\` |`);
      expect(french, state).toContain(`| \`${state}\` |`);
      expect(troubleshootingPage, state).toContain(`### \`${state}\``);
    }
  });

  it("documents every attribute the entities carry", () => {
    const states = [
      ...childEntities(contractNames, en, child, myDay, Date.now()),
      ...childEntities(contractNames, en, child, calmDay, Date.now()),
      ...unavailableChildEntities(contractNames, en, child, "api_unreachable"),
      statusEntity(contractNames, en, {
        state: "ok",
        requestsLastMinute: 3,
        budgetPerMinute: 27,
        demandPerMinute: 3,
        stretch: 1,
        todayStretch: 1,
        children: [child],
        rateLimitedCount: 0,
        lastError: null,
        lastTurnAt: Date.now(),
      }),
    ];
    const attributes = new Set(states.flatMap((state) => Object.keys(state.attributes)));
    expect([...attributes].filter((name) => !mentions(name, entitiesPage))).toEqual([]);
  });

  it("explains every reason an entity can be unavailable", () => {
    for (const reason of unavailableReasonKinds)
      expect(mentions(reasonText(reason), troubleshootingPage), reason).toBe(true);
  });

  it("documents the event and each of its types, with its data", () => {
    expect(mentions(EVENT_TYPE)).toBe(true);
    for (const type of [...apiEventTypes, ...derivedFactTypes]) {
      const section = eventsPage.section(type);
      expect(section, `a section of docs/events.md for ${type}`).toBeDefined();
      // What the delivery adds (redelivered) with what the mapping gives.
      const data = {
        ...eventData(child, { event: sampleFacts[type], ageSeconds: 12, replayed: false }),
        redelivered: false,
      };
      for (const field of Object.keys(data)) {
        const where = eventsPage.common.includes(`\`${field}\``) ? eventsPage.common : section;
        expect(where?.includes(`\`${field}\``), `${type}.${field}`).toBe(true);
      }
      // An automation to start from, on this type.
      const example = [...(section ?? "").matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) =>
        parse(m[1] as string),
      );
      expect(JSON.stringify(example), type).toContain(`"type":"${type}"`);
    }
  });

  it("names the notifications (a refused token, a refused MQTT login)", () => {
    for (const part of [english, french]) {
      expect(mentions(TOKEN_NOTIFICATION_ID, part)).toBe(true);
      expect(mentions(BROKER_NOTIFICATION_ID, part)).toBe(true);
    }
  });

  it("shows YAML that parses, here and on every page", () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(3);
    for (const block of docPages().flatMap((page) => yamlOf(readText(page))))
      expect(() => parse(block), block).not.toThrow();
  });

  it("turns the TV off with a time trigger at the session's end", () => {
    const automations = yamlBlocks.map((block) => parse(block) as Record<string, unknown>);
    const tvOff = automations.find((a) => JSON.stringify(a?.triggers ?? "").includes('"trigger":"time"'));
    expect(tvOff?.triggers).toEqual([{ trigger: "time", at: childEntityId("lea", "session_ends_at") }]);
    expect(tvOff?.conditions).toContainEqual({
      condition: "state",
      entity_id: childEntityId("lea", "my_day"),
      state: "on",
    });
  });

  it("writes its example automations in the syntax of 2024.10 and later, and tells how to spell them before", () => {
    const examples = yamlBlocks
      .map((block) => parse(block) as Record<string, unknown>)
      .filter((block) => block && "alias" in block);
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      const alias = String(example.alias);
      expect(Object.keys(example), alias).toEqual(expect.arrayContaining(["triggers", "actions"]));
      expect(Object.keys(example), alias).not.toEqual(expect.arrayContaining(["trigger"]));
      expect(JSON.stringify(example), alias).not.toMatch(/"(platform|service)":/);
    }
    // The translation the tests apply for 2024.3 (test/support/pre-2024-10-syntax.ts), in words.
    expect(docs).toContain("The examples use the syntax of Home Assistant 2024.10 and later");
    for (const spelling of [
      "`trigger:`",
      "`condition:`",
      "`action:`",
      "`platform: time`",
      "`service: media_player",
    ])
      expect(docs).toContain(spelling);
  });

  it("gives, for a dashboard kept by hand, exactly the cards the bridge writes (Léa's section, MQTT)", () => {
    const section = yamlOf(dashboardPage)
      .map((block) => parse(block) as { type?: string })
      .find((value) => value?.type === "grid");
    expect(section).toEqual(
      childSection({ slug: "lea", firstName: "Léa" }, { names: contractNames, texts: en, mode: "mqtt" }),
    );
  });

  it("names every blueprint (in both languages), and its page gives an import link in each language to the file in the repository", () => {
    for (const folder of ["reward_facts", "reward_facts_fr"]) {
      const blueprints = readdirSync(join(repoRoot, "addon/blueprints/automation", folder));
      expect(blueprints.length).toBeGreaterThanOrEqual(6);
      for (const file of blueprints) {
        expect(mentions(file.replace(/\.yaml$/, ""), english), file).toBe(true);
        expect(mentions(file.replace(/\.yaml$/, ""), french), `${file} (French)`).toBe(true);
        // my.home-assistant.io's redirect, which opens the import on the reader's Home Assistant at
        // once (its create-link/ page is one page more), with the file's address encoded.
        const url = `https://github.com/reward-facts/reward-facts-bridge/blob/main/addon/blueprints/automation/${folder}/${file}`;
        expect(blueprintsPage, `${folder}/${file}`).toContain(
          `https://my.home-assistant.io/redirect/blueprint_import/?blueprint_url=${encodeURIComponent(url)})`,
        );
      }
    }
    for (const page of [...docPages(), "README.md"])
      expect(readText(page), page).not.toContain("my.home-assistant.io/create-link/");
  });
});
