import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  buildDashboard,
  DEFAULT_GAUGE_MAX,
  dashboardPlace,
} from "../../../src/ha/dashboard/build-dashboard.js";
import type { LovelaceCard } from "../../../src/ha/dashboard/lovelace.js";
import { judge, MARK_KEY, marked } from "../../../src/ha/dashboard/marker.js";
import { contractNames, EntityNames } from "../../../src/ha/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";

const demoNames = new EntityNames("reward_facts_demo");
const children = [
  { slug: "lea", firstName: "Léa" },
  { slug: "noah", firstName: "Noah" },
];

/** Every card of a configuration, stacks and conditionals opened, depth first. */
function cardsOf(cards: readonly LovelaceCard[]): LovelaceCard[] {
  return cards.flatMap((card) => [
    card,
    ...cardsOf((card.cards as LovelaceCard[] | undefined) ?? []),
    ...cardsOf(card.card ? [card.card as LovelaceCard] : []),
  ]);
}

/** Every entity id a configuration names, in cards, rows, conditions and templates. */
function entityIdsIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/\b(sensor|binary_sensor|event)\.[a-z0-9_]+/g)].map((m) => m[0]);
}

const stackOf = (config: ReturnType<typeof buildDashboard>, firstName: string) => {
  const stack = config.views[0]?.cards.find((card) => card.title === firstName);
  if (!stack) throw new Error(`no stack for ${firstName}`);
  return stack;
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

describe("the Rewards dashboard", () => {
  it.each([
    ["the bridge's, REST", contractNames, "rest"],
    ["the bridge's, MQTT", contractNames, "mqtt"],
    ["the demo's", demoNames, "rest"],
  ] as const)(
    "%s: a view of one column per child, then the bridge's status, in the names given",
    (_what, names, mode) => {
      const config = buildDashboard({ names, texts: en, children, mode });
      const view = config.views[0];
      expect(config.views).toHaveLength(1);
      expect(view?.path).toBe("today");
      expect(view?.cards.map((card) => card.title ?? (card.card as LovelaceCard).type)).toEqual([
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

  it("uses only cards of Home Assistant itself that 2024.3 has as well", () => {
    const config = buildDashboard({ names: contractNames, texts: en, children, mode: "mqtt" });
    const types = new Set(cardsOf(config.views[0]?.cards ?? []).map((card) => card.type));
    expect([...types].sort()).toEqual([
      "conditional",
      "entities",
      "gauge",
      "logbook",
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
    const stack = stackOf(buildDashboard({ names: contractNames, texts: en, children, mode: "rest" }), "Léa");
    const [card, ...more] = conditionalOf(stack, type, containing);
    expect(more).toEqual([]);
    expect(card?.conditions).toEqual([{ condition: "state", entity, state }]);
  });

  it("headlines the minutes left on a gauge coloured by what is left, topped at each child's, 120 until known", () => {
    const gauge = (config: ReturnType<typeof buildDashboard>) =>
      conditionalOf(stackOf(config, "Léa"), "gauge")[0]?.card as LovelaceCard;
    expect(gauge(buildDashboard({ names: contractNames, texts: en, children, mode: "rest" }))).toMatchObject({
      entity: "sensor.reward_facts_lea_minutes_remaining",
      min: 0,
      max: DEFAULT_GAUGE_MAX,
      severity: { green: 30, yellow: 10, red: 0 },
    });
    const told = [
      { slug: "lea", firstName: "Léa", gaugeMax: 45 },
      { slug: "noah", firstName: "Noah" },
    ];
    const config = buildDashboard({ names: contractNames, texts: en, children: told, mode: "rest" });
    expect(gauge(config).max).toBe(45);
    expect(inner(conditionalOf(stackOf(config, "Noah"), "gauge")[0]).max).toBe(DEFAULT_GAUGE_MAX);
  });

  it("tells the session's end as a relative time", () => {
    const stack = stackOf(buildDashboard({ names: contractNames, texts: en, children, mode: "rest" }), "Léa");
    expect(inner(conditionalOf(stack, "entities")[0]).entities).toEqual([
      { entity: "sensor.reward_facts_lea_session_ends_at", name: "Session ends", format: "relative" },
    ]);
  });

  it.each([
    ["rest", "sensor.reward_facts_lea_minutes_remaining", 0],
    ["mqtt", "sensor.reward_facts_lea_read_status", 1],
  ] as const)(
    "in %s mode, reads why a child cannot be read from %s; the journal's logbook: %i",
    (mode, reasonFrom, logbooks) => {
      const stack = stackOf(buildDashboard({ names: contractNames, texts: en, children, mode }), "Léa");
      const [unreadable] = conditionalOf(stack, "markdown", "alert-type");
      expect(unreadable?.conditions).toEqual([
        {
          condition: "state",
          entity: "sensor.reward_facts_lea_minutes_remaining",
          state: ["unavailable", "unknown"],
        },
      ]);
      expect(inner(unreadable).content).toContain(`state_attr("${reasonFrom}", "reason")`);
      const logbook = conditionalOf(stack, "logbook");
      expect(logbook).toHaveLength(logbooks);
      if (logbooks) expect(inner(logbook[0]).entities).toEqual(["event.reward_facts_lea_journal"]);
    },
  );

  it("gives a child's first name to the templates as a string, never as template text", () => {
    const config = buildDashboard({
      names: contractNames,
      texts: en,
      children: [{ slug: "x", firstName: 'Zoé "{{ 7 * 7 }}"' }],
      mode: "rest",
    });
    const texts = cardsOf(config.views[0]?.cards ?? [])
      .map((card) => card.content)
      .filter((content): content is string => typeof content === "string");
    const named = texts.filter((text) => text.includes("Zoé"));
    expect(named.length).toBeGreaterThanOrEqual(2);
    for (const text of named) {
      expect(text).toContain('{{ "Zoé \\"{{ 7 * 7 }}\\"" | e }}');
      expect(text.replace('{{ "Zoé \\"{{ 7 * 7 }}\\"" | e }}', "")).not.toContain("Zoé");
    }
  });

  it("is only the bridge's status without children", () => {
    const config = buildDashboard({ names: contractNames, texts: en, children: [], mode: "rest" });
    expect(config.views[0]?.cards).toEqual([
      expect.objectContaining({
        type: "conditional",
        conditions: [{ condition: "state", entity: "sensor.reward_facts_status", state_not: "ok" }],
      }),
    ]);
  });

  it.each([
    [contractNames, { urlPath: "reward-facts", title: "Rewards" }],
    [demoNames, { urlPath: "reward-facts-demo", title: "Rewards (demo)" }],
  ])("lives at its own address: %s", (names, place) => {
    expect(dashboardPlace(names, en)).toMatchObject(place);
    expect(buildDashboard({ names, texts: en, children, mode: "rest" }).title).toBe(place.title);
  });
});

describe("the bridge's mark on what it wrote", () => {
  const wanted = buildDashboard({ names: contractNames, texts: en, children, mode: "rest" });
  const older = buildDashboard({
    names: contractNames,
    texts: en,
    children: children.slice(0, 1),
    mode: "rest",
  });
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
    copy.views[0].cards.push({ type: "markdown", content: "Our own note" });
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
