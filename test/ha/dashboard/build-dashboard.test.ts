import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  buildDashboard,
  type DashboardInput,
  DEFAULT_GAUGE_MAX,
  dashboardPlace,
} from "../../../src/ha/dashboard/build-dashboard.js";
import { dashboardLayout } from "../../../src/ha/dashboard/layout.js";
import type {
  LovelaceCard,
  LovelaceConfig,
  LovelaceView,
  MasonryView,
  SectionsView,
} from "../../../src/ha/dashboard/lovelace.js";
import { judge, MARK_KEY, marked } from "../../../src/ha/dashboard/marker.js";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { fr } from "../../../src/ha/texts/fr.js";

const demoNames = new EntityNames("reward_facts_demo");
const children = [
  { slug: "lea", firstName: "Léa" },
  { slug: "noah", firstName: "Noah" },
];
/** The oldest release the add-on supports (the older layout) and the current one (sections). */
const OLDEST = "2024.3.3";
const CURRENT = "2026.11.0";

const build = (input: Partial<DashboardInput> & { haVersion?: string }) =>
  buildDashboard({ names: contractNames, texts: en, children, mode: "rest", ...input });

/** Every card of a list, stacks and conditionals opened, depth first. */
function cardsOf(cards: readonly LovelaceCard[]): LovelaceCard[] {
  return cards.flatMap((card) => [
    card,
    ...cardsOf((card.cards as LovelaceCard[] | undefined) ?? []),
    ...cardsOf(card.card ? [card.card as LovelaceCard] : []),
  ]);
}

/** The cards of a view, whatever its layout. */
const viewCards = (view: LovelaceView | undefined): LovelaceCard[] =>
  !view ? [] : "sections" in view ? view.sections.flatMap((section) => section.cards) : view.cards;

const allCards = (config: LovelaceConfig) => config.views.flatMap((view) => cardsOf(viewCards(view)));

/** Every entity id a configuration names, in cards, badges, rows, conditions and templates. */
function entityIdsIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/\b(sensor|binary_sensor|event)\.[a-z0-9_]+/g)].map((m) => m[0]);
}

const masonry = (config: LovelaceConfig): MasonryView => {
  const view = config.views[0];
  if (!view || "sections" in view) throw new Error("not the older layout");
  return view;
};
const sectionsView = (config: LovelaceConfig, path = "today"): SectionsView => {
  const view = config.views.find((candidate) => candidate.path === path);
  if (!view || !("sections" in view)) throw new Error(`no sections view at ${path}`);
  return view;
};

const stackOf = (config: LovelaceConfig, firstName: string) => {
  const stack = masonry(config).cards.find((card) => card.title === firstName);
  if (!stack) throw new Error(`no stack for ${firstName}`);
  return stack;
};

/** A child's section of the Today view: the one under her name. */
const sectionOf = (config: LovelaceConfig, firstName: string) => {
  const section = sectionsView(config).sections.find(
    (candidate) => candidate.cards[0]?.heading === firstName,
  );
  if (!section) throw new Error(`no section for ${firstName}`);
  return section;
};

/** The card a conditional shows. */
const inner = (card: LovelaceCard | undefined): LovelaceCard => {
  if (!card?.card) throw new Error("no conditional card here");
  return card.card as LovelaceCard;
};

/** The conditional of a child's stack whose card is of `type` (and whose text has `containing`). */
const conditionalOf = (stack: LovelaceCard, type: string, containing = "") =>
  (stack.cards as LovelaceCard[]).filter(
    (card) =>
      card.type === "conditional" &&
      (card.card as LovelaceCard).type === type &&
      JSON.stringify(card.card).includes(containing),
  );

/** The cards of a section of `type` (and whose text has `containing`). */
const cardOf = (cards: readonly LovelaceCard[], type: string, containing = "") =>
  cards.filter((card) => card.type === type && JSON.stringify(card).includes(containing));

describe("the layout of each release", () => {
  it.each([
    [undefined, "masonry"],
    ["", "masonry"],
    ["2024.3.3", "masonry"],
    ["2024.10.4", "masonry"],
    ["2024.11.0b3", "sections"],
    ["2024.11.0", "sections"],
    ["2025.1.2", "sections"],
    ["2026.11.0", "sections"],
    ["2026.12.0.dev20261201", "sections"],
    ["not a version", "masonry"],
  ] as const)("Home Assistant %s: %s", (version, layout) => {
    expect(dashboardLayout(version)).toBe(layout);
    const config = build({ haVersion: version });
    expect("sections" in (config.views[0] as LovelaceView)).toBe(layout === "sections");
  });
});

describe("the Rewards dashboard in the older layout (before 2024.11)", () => {
  it.each([
    ["the bridge's, REST", contractNames, "rest"],
    ["the bridge's, MQTT", contractNames, "mqtt"],
    ["the demo's", demoNames, "rest"],
  ] as const)(
    "%s: a view of one column per child, then the bridge's status, in the names given",
    (_what, names, mode) => {
      const config = build({ names, mode, haVersion: OLDEST });
      const view = masonry(config);
      expect(config.views).toHaveLength(1);
      expect(view.path).toBe("today");
      expect(view.cards.map((card) => card.title ?? (card.card as LovelaceCard).type)).toEqual([
        "Léa",
        "Noah",
        "markdown",
      ]);
      const ids = entityIdsIn(config);
      expect(ids.length).toBeGreaterThan(10);
      for (const id of ids) expect(id.startsWith(`${id.split(".")[0]}.${names.prefix}_`), id).toBe(true);
      if (names === contractNames) expect(ids.some((id) => id.includes("reward_facts_demo"))).toBe(false);
      expect(ids).toContain(names.status);
    },
  );

  it("is the same while Home Assistant's version is not known", () => {
    expect(build({})).toEqual(build({ haVersion: OLDEST }));
  });

  it("uses only cards of Home Assistant itself that 2024.3 has as well", () => {
    const config = build({ mode: "mqtt", haVersion: OLDEST });
    expect([...new Set(allCards(config).map((card) => card.type))].sort()).toEqual([
      "conditional",
      "entities",
      "gauge",
      "markdown",
      "vertical-stack",
    ]);
  });

  it.each([
    ["the minutes gauge", "gauge", "", "binary_sensor.reward_facts_lea_my_day", "on"],
    [
      "the session's end",
      "entities",
      "session_ends_at",
      "binary_sensor.reward_facts_lea_session_running",
      "on",
    ],
    ["points, streak and behaviors", "markdown", "max_points", "binary_sensor.reward_facts_lea_my_day", "on"],
    [
      "the other home's day",
      "markdown",
      "At the other home today",
      "binary_sensor.reward_facts_lea_my_day",
      "off",
    ],
  ])("shows %s only while the child's %s is %s", (_what, type, containing, entity, state) => {
    const [card, ...more] = conditionalOf(stackOf(build({ haVersion: OLDEST }), "Léa"), type, containing);
    expect(more).toEqual([]);
    expect(card?.conditions).toEqual([{ condition: "state", entity, state }]);
  });

  it("tells the session's end as a relative time", () => {
    const stack = stackOf(build({ haVersion: OLDEST }), "Léa");
    expect(inner(conditionalOf(stack, "entities")[0]).entities).toEqual([
      { entity: "sensor.reward_facts_lea_session_ends_at", name: "Session ends", format: "relative" },
    ]);
  });

  it.each([
    ["rest", "sensor.reward_facts_lea_minutes_remaining"],
    ["mqtt", "sensor.reward_facts_lea_read_status"],
  ] as const)(
    "in %s mode, reads why a child cannot be read from %s; her latest facts from her diary",
    (mode, reasonFrom) => {
      const stack = stackOf(build({ mode, haVersion: OLDEST }), "Léa");
      const [unreadable] = conditionalOf(stack, "markdown", "alert-type");
      expect(unreadable?.conditions).toEqual([
        {
          condition: "state",
          entity: "sensor.reward_facts_lea_minutes_remaining",
          state: ["unavailable", "unknown"],
        },
      ]);
      expect(inner(unreadable).content).toContain(`state_attr("${reasonFrom}", "reason")`);
      const [diary, ...more] = conditionalOf(stack, "markdown", "sensor.reward_facts_lea_latest_facts");
      expect(more).toEqual([]);
      expect(inner(diary).title).toBe(en.dashboard.latest_facts);
      expect(conditionalOf(stack, "logbook")).toEqual([]);
    },
  );

  it("is only the bridge's status without children", () => {
    expect(masonry(build({ children: [], haVersion: OLDEST })).cards).toEqual([
      expect.objectContaining({
        type: "conditional",
        conditions: [{ condition: "state", entity: "sensor.reward_facts_status", state_not: "ok" }],
      }),
    ]);
  });
});

describe("the Rewards dashboard in the sections layout (2024.11 and later)", () => {
  it.each([
    ["the bridge's, REST", contractNames, "rest"],
    ["the bridge's, MQTT", contractNames, "mqtt"],
    ["the demo's", demoNames, "rest"],
  ] as const)(
    "%s: the Today view (a section per child, side by side), then a view of each child's own",
    (_what, names, mode) => {
      const config = build({ names, mode, haVersion: CURRENT });
      expect(config.views.map((view) => [view.path, view.title])).toEqual([
        ["today", "Today"],
        ["lea", "Léa"],
        ["noah", "Noah"],
      ]);
      const today = sectionsView(config);
      expect(today).toMatchObject({ type: "sections", max_columns: 2, icon: "mdi:timer-sand" });
      // The bridge's status across the width, only when it is not ok; then each child's section.
      expect(today.sections.map((section) => section.cards[0]?.heading ?? section.cards[0]?.type)).toEqual([
        "markdown",
        "Léa",
        "Noah",
      ]);
      expect(today.sections[0]).toMatchObject({
        column_span: 2,
        visibility: [{ condition: "state", entity: names.status, state_not: "ok" }],
      });
      const ids = entityIdsIn(config);
      for (const id of ids) expect(id.startsWith(`${id.split(".")[0]}.${names.prefix}_`), id).toBe(true);
      if (names === contractNames) expect(ids.some((id) => id.includes("reward_facts_demo"))).toBe(false);
      expect(ids).toContain(names.status);
    },
  );

  it("has a section per child up to four side by side", () => {
    const many = ["a", "b", "c", "d", "e"].map((slug) => ({ slug, firstName: slug.toUpperCase() }));
    expect(sectionsView(build({ children: many, haVersion: CURRENT })).max_columns).toBe(4);
    expect(sectionsView(build({ children: many.slice(0, 3), haVersion: CURRENT })).max_columns).toBe(3);
    expect(sectionsView(build({ children: many.slice(0, 1), haVersion: CURRENT })).max_columns).toBe(1);
  });

  it("uses only cards of Home Assistant itself that 2024.11 has", () => {
    const config = build({ mode: "mqtt", haVersion: CURRENT });
    expect([...new Set(allCards(config).map((card) => card.type))].sort()).toEqual([
      "entities",
      "gauge",
      "heading",
      "markdown",
      "statistics-graph",
    ]);
  });

  it("puts each child's minutes left on top, under her name, on her household's days", () => {
    expect(sectionsView(build({ haVersion: CURRENT })).badges).toEqual(
      children.map((child) => ({
        type: "entity",
        entity: `sensor.reward_facts_${child.slug}_minutes_remaining`,
        name: child.firstName,
        show_name: true,
        visibility: [
          { condition: "state", entity: `binary_sensor.reward_facts_${child.slug}_my_day`, state: "on" },
        ],
      })),
    );
  });

  it("heads each child's section with her name, her points and streak as badges, and a link to her own view", () => {
    const myDay = [{ condition: "state", entity: "binary_sensor.reward_facts_lea_my_day", state: "on" }];
    expect(sectionOf(build({ haVersion: CURRENT }), "Léa").cards[0]).toEqual({
      type: "heading",
      heading: "Léa",
      heading_style: "title",
      badges: [
        { type: "entity", entity: "sensor.reward_facts_lea_points", visibility: myDay },
        { type: "entity", entity: "sensor.reward_facts_lea_streak", visibility: myDay },
      ],
      tap_action: { action: "navigate", navigation_path: "/reward-facts/lea" },
    });
    expect(sectionOf(build({ names: demoNames, haVersion: CURRENT }), "Léa").cards[0]?.tap_action).toEqual({
      action: "navigate",
      navigation_path: "/reward-facts-demo/lea",
    });
  });

  // The gauge, then why screens are not allowed (while they are not), the session's end, the day,
  // the latest facts, the other home, why she cannot be read, the week's chart or its first days:
  // the same cards in both modes (the diary is the bridge's own state in each).
  const sectionCards = [
    "heading",
    "gauge",
    "markdown",
    "entities",
    "markdown",
    "markdown",
    "markdown",
    "markdown",
    "statistics-graph",
    "markdown",
  ];
  it.each([
    ["rest", sectionCards],
    ["mqtt", sectionCards],
  ] as const)("in %s mode, gives each child: %j", (mode, types) => {
    const section = sectionOf(build({ mode, haVersion: CURRENT }), "Noah");
    expect(section.cards.map((card) => card.type)).toEqual(types);
    // Hers only.
    for (const id of entityIdsIn(section)) expect(id, id).toMatch(/_noah_/);
  });

  it.each([
    ["the minutes gauge", "gauge", "", "binary_sensor.reward_facts_lea_my_day", "on"],
    [
      "the session's end",
      "entities",
      "session_ends_at",
      "binary_sensor.reward_facts_lea_session_running",
      "on",
    ],
    ["points, streak and behaviors", "markdown", "max_points", "binary_sensor.reward_facts_lea_my_day", "on"],
    [
      "the other home's day",
      "markdown",
      "At the other home today",
      "binary_sensor.reward_facts_lea_my_day",
      "off",
    ],
    [
      "why she cannot be read",
      "markdown",
      "alert-type",
      "sensor.reward_facts_lea_minutes_remaining",
      ["unavailable", "unknown"],
    ],
  ])("shows %s only while the child's %s is %j", (_what, type, containing, entity, state) => {
    const config = build({ mode: "mqtt", haVersion: CURRENT });
    for (const cards of [sectionOf(config, "Léa").cards, viewCards(config.views[1])]) {
      const [card, ...more] = cardOf(cards, type, containing);
      expect(more).toEqual([]);
      expect(card?.visibility).toEqual([{ condition: "state", entity, state }]);
    }
  });

  it.each([
    ["the week's chart", "statistics-graph", "", "chart"],
    ["the week filling", "markdown", "strptime", "filling"],
  ])("shows %s while she is read, and while her week is %s", (_what, type, containing, week) => {
    const config = build({ mode: "mqtt", haVersion: CURRENT });
    for (const cards of [sectionOf(config, "Léa").cards, viewCards(config.views[1])]) {
      const [card, ...more] = cardOf(cards, type, containing);
      expect(more).toEqual([]);
      expect(card?.visibility).toEqual([
        { condition: "state", entity: "binary_sensor.reward_facts_lea_my_day", state: ["on", "off"] },
        { condition: "state", entity: "sensor.reward_facts_lea_screen_time_days", state: week },
      ]);
    }
  });

  it("says the week fills day by day, each day so far in the household's words", () => {
    for (const texts of [en, fr]) {
      const [filling] = cardOf(
        sectionOf(build({ haVersion: CURRENT, texts }), "Léa").cards,
        "markdown",
        "strptime",
      );
      expect(filling?.title).toBe(texts.dashboard.week);
      expect(filling?.content).toContain(texts.dashboard.week_filling);
      expect(filling?.content).toContain(JSON.stringify(texts.dashboard.weekdays));
      expect(filling?.content).toContain('state_attr("sensor.reward_facts_lea_screen_time_days", "days")');
    }
  });

  it("charts the minutes used per day over the last 7 days from Home Assistant's statistics", () => {
    const [week] = cardOf(sectionOf(build({ haVersion: CURRENT }), "Léa").cards, "statistics-graph");
    expect(week).toEqual({
      type: "statistics-graph",
      title: "Screen time per day",
      entities: ["sensor.reward_facts_lea_minutes_consumed"],
      stat_types: ["change"],
      period: "day",
      days_to_show: 7,
      chart_type: "bar",
      hide_legend: true,
      visibility: [
        { condition: "state", entity: "binary_sensor.reward_facts_lea_my_day", state: ["on", "off"] },
        { condition: "state", entity: "sensor.reward_facts_lea_screen_time_days", state: "chart" },
      ],
    });
  });

  it("gives each child a view of her own for a wall tablet: her cards only, in two large sections", () => {
    const view = sectionsView(build({ mode: "mqtt", haVersion: CURRENT }), "noah");
    expect(view).toMatchObject({ title: "Noah", path: "noah", type: "sections", max_columns: 2 });
    expect(view.badges).toBeUndefined();
    expect(view.sections.map((section) => section.cards.map((card) => card.type))).toEqual([
      ["heading", "gauge", "markdown", "entities", "markdown", "markdown", "markdown"],
      ["statistics-graph", "markdown", "markdown"],
    ]);
    // Her name heads it, with her badges; no link (she is there already).
    expect(view.sections[0]?.cards[0]).toMatchObject({ heading: "Noah", badges: [{}, {}] });
    expect(view.sections[0]?.cards[0]?.tap_action).toBeUndefined();
    for (const id of entityIdsIn(view)) expect(id, id).toMatch(/_noah_/);
  });

  it("is only the bridge's status without children", () => {
    const config = build({ children: [], haVersion: CURRENT });
    expect(config.views).toHaveLength(1);
    expect(sectionsView(config)).toMatchObject({ max_columns: 1, badges: [] });
    expect(sectionsView(config).sections).toEqual([
      expect.objectContaining({ column_span: 1, cards: [expect.objectContaining({ type: "markdown" })] }),
    ]);
  });
});

describe("the Rewards dashboard in either layout", () => {
  it.each([OLDEST, CURRENT])(
    "%s: tops each child's gauge at her unlocked minutes, 120 until her day is read",
    (haVersion) => {
      const config = build({
        haVersion,
        children: [
          { slug: "lea", firstName: "Léa", gaugeMax: 45 },
          { slug: "noah", firstName: "Noah" },
        ],
      });
      const gauges = allCards(config).filter((card) => card.type === "gauge");
      const topOf = (slug: string) => [
        ...new Set(
          gauges.filter((gauge) => String(gauge.entity).includes(`_${slug}_`)).map((gauge) => gauge.max),
        ),
      ];
      expect(topOf("lea")).toEqual([45]);
      expect(topOf("noah")).toEqual([DEFAULT_GAUGE_MAX]);
      expect(gauges[0]).toMatchObject({
        entity: "sensor.reward_facts_lea_minutes_remaining",
        min: 0,
        severity: { green: 30, yellow: 10, red: 0 },
      });
    },
  );

  it.each([OLDEST, CURRENT])(
    "%s: gives a child's first name to the templates as a string, never as template text",
    (haVersion) => {
      const config = build({ haVersion, children: [{ slug: "x", firstName: 'Zoé "{{ 7 * 7 }}"' }] });
      const texts = allCards(config)
        .map((card) => card.content)
        .filter((content): content is string => typeof content === "string");
      const named = texts.filter((text) => text.includes("Zoé"));
      expect(named.length).toBeGreaterThanOrEqual(2);
      for (const text of named) {
        expect(text).toContain('{{ "Zoé \\"{{ 7 * 7 }}\\"" | e }}');
        expect(text.replace('{{ "Zoé \\"{{ 7 * 7 }}\\"" | e }}', "")).not.toContain("Zoé");
      }
    },
  );

  it.each([OLDEST, CURRENT])("%s: says it in the household's language", (haVersion) => {
    const words = (texts: typeof en) => JSON.stringify(build({ haVersion, texts, mode: "mqtt" }));
    for (const key of [
      "today_view",
      "minutes_left",
      "session_ends",
      "latest_facts",
      "other_home_title",
    ] as const) {
      expect(words(fr), key).toContain(JSON.stringify(fr.dashboard[key]).slice(1, -1));
      expect(words(fr), key).not.toContain(JSON.stringify(en.dashboard[key]).slice(1, -1));
    }
    if (haVersion === CURRENT) expect(words(fr)).toContain(fr.dashboard.week);
  });

  it.each([OLDEST, CURRENT])(
    "%s: says why screens are not allowed, on her household's day, while they are not",
    (haVersion) => {
      for (const texts of [en, fr]) {
        const config = build({ haVersion, texts });
        const whyNot = (card: LovelaceCard) =>
          typeof card.content === "string" && card.content.includes("_lea_screen_time_allowed");
        const shown =
          haVersion === CURRENT
            ? sectionOf(config, "Léa").cards.filter(whyNot)
            : conditionalOf(stackOf(config, "Léa"), "markdown", "_lea_screen_time_allowed").map(inner);
        expect(shown).toHaveLength(1);
        const conditions =
          haVersion === CURRENT
            ? shown[0]?.visibility
            : conditionalOf(stackOf(config, "Léa"), "markdown", "_lea_screen_time_allowed")[0]?.conditions;
        expect(conditions).toEqual([
          { condition: "state", entity: "binary_sensor.reward_facts_lea_my_day", state: "on" },
          { condition: "state", entity: "binary_sensor.reward_facts_lea_screen_time_allowed", state: "off" },
        ]);
        // Both reasons of this household's day, in its language, the name given once.
        const content = String(shown[0]?.content);
        for (const sentence of [
          texts.dashboard.why_not_not_consumable_today,
          texts.dashboard.why_not_no_minutes_left,
        ])
          expect(content).toContain(JSON.stringify(sentence).slice(1, -1));
        expect(content.split('{{ "Léa" | e }}')).toHaveLength(2);
      }
    },
  );

  it.each([
    [contractNames, { urlPath: "reward-facts", title: "Rewards" }],
    [demoNames, { urlPath: "reward-facts-demo", title: "Rewards (demo)" }],
  ])("lives at its own address: %s", (names, place) => {
    expect(dashboardPlace(names, en)).toMatchObject(place);
    for (const haVersion of [OLDEST, CURRENT]) expect(build({ names, haVersion }).title).toBe(place.title);
  });
});

describe("the bridge's mark on what it wrote", () => {
  const wanted = build({ haVersion: CURRENT });
  const older = build({ haVersion: CURRENT, children: children.slice(0, 1) });
  /** As Home Assistant's storage gives it back: a JSON round trip, keys in another order. */
  const roundTrip = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value, (_key, item) =>
        item && typeof item === "object" && !Array.isArray(item)
          ? Object.fromEntries(Object.entries(item).reverse())
          : item,
      ),
    );
  const edited = () => {
    const copy = roundTrip(marked(wanted));
    copy.views[0].sections[1].cards.push({ type: "markdown", content: "Our own note" });
    return copy;
  };
  const unmarked = () => {
    const { [MARK_KEY]: _mark, ...content } = marked(wanted);
    return content;
  };

  it.each<[string, unknown, ReturnType<typeof judge>]>([
    ["nothing saved yet", undefined, "absent"],
    ["nothing saved yet (null)", null, "absent"],
    ["what it would write now", roundTrip(marked(wanted)), "same"],
    ["an earlier version of its own, untouched", roundTrip(marked(older)), "outdated"],
    ["its own for an older release, untouched", roundTrip(marked(build({ haVersion: OLDEST }))), "outdated"],
    ["its own, edited since", edited(), "changed"],
    ["the same cards without its mark (made by hand)", unmarked(), "changed"],
    ["something that is no configuration", "views: []", "changed"],
  ])("%s: %s", (_what, stored, judgement) => {
    expect(judge(stored, wanted)).toBe(judgement);
  });
});

describe("a mark saved by an earlier bridge", () => {
  // Bridges up to 0.2.0 hashed with node:crypto, later ones with @noble/hashes, and node:crypto
  // again since: the digest must never change. A dashboard saved by any of them must still be
  // judged the bridge's own, or it would never be updated again.
  const config = {
    title: "Rewards",
    views: [{ title: "Léa", path: "lea", cards: [{ type: "markdown", content: "5 min" }] }],
  };
  // The canonical form marker.ts hashes: keys in order at every level, written out by hand here.
  const canonical =
    '{"title":"Rewards","views":[{"cards":[{"content":"5 min","type":"markdown"}],"path":"lea","title":"Léa"}]}';
  // As every bridge so far saved it: written out, so that a change of how the digest is made fails.
  const earlierHash = "c2bf583d5aabe9a2a39568c50a481ca4";

  it("has the digest every earlier bridge gave: SHA-256 of the canonical form, 32 hex digits", () => {
    expect(createHash("sha256").update(canonical).digest("hex").slice(0, 32)).toBe(earlierHash);
    expect(marked(config)[MARK_KEY].hash).toBe(earlierHash);
  });

  it("is judged the bridge's own, untouched", () => {
    const saved = {
      ...config,
      [MARK_KEY]: { note: "Written by the Reward Facts bridge.", hash: earlierHash },
    };
    expect(judge(saved, config)).toBe("same");
  });
});

describe("the bridge's alert on the dashboard", () => {
  const alertOf = (config: LovelaceConfig) =>
    JSON.stringify(
      allCards(config).filter((card) =>
        JSON.stringify(card).includes('ha-alert alert-type=\\"warning\\" title='),
      ),
    );

  it("speaks the household's language and shows the bridge's message, never its raw state nor the API's error", () => {
    for (const [texts, title] of [
      [en, "Reward Facts bridge"],
      [fr, "Pont Reward Facts"],
    ] as const) {
      for (const haVersion of [OLDEST, CURRENT]) {
        const alert = alertOf(build({ texts, haVersion }));
        expect(alert).toContain(`title=\\"${title}\\"`);
        expect(alert).toContain('\\"message\\"');
        expect(alert).toContain(texts.dashboard.see_log);
        expect(alert).not.toMatch(/last_error|states\(/);
      }
    }
  });
});
