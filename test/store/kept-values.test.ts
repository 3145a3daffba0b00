import { describe, expect, it } from "vitest";
import type { DerivedFact } from "../../src/engine/derived-facts.js";
import {
  assistMemoryOn,
  bridgeIdentityOn,
  cursorStoreOn,
  derivedStoreOn,
  openStore,
  slugMemoryOn,
} from "../../src/store/index.js";
import { captureLogger, readStoreFile, tempDir, WARN } from "./helpers.js";

// What the data directory gives back is checked as the API's answers are: a value that does not
// fit is set aside with one warning, and the bridge goes on as without it (issue 53: a cursor of
// the wrong type failed every poll of every child, a malformed pending fact held back the rest).

const CHILD = "7f3c2a10-0000-4000-8000-000000000001";

async function opened() {
  const dataDir = await tempDir();
  const { logger, lines } = captureLogger();
  const store = await openStore({ dataDir, logger });
  const warnings = () => lines.filter((line) => line.level === WARN);
  return { store, logger, warnings };
}

const declared = (behaviorId: string): DerivedFact => ({
  derived: true,
  type: "behavior_declared",
  id: `derived:${CHILD}:2026-11-21:behavior_declared:${behaviorId}`,
  childId: CHILD,
  day: "2026-11-21",
  at: "2026-11-21T15:00:00.000Z",
  behaviorId,
  label: "Homework",
  mandatory: true,
});

const state = { last: null, sessions: 0 };

describe("a child's cursor read back from the data directory", () => {
  it("is the text kept", async () => {
    const { store, logger, warnings } = await opened();
    const cursors = cursorStoreOn(store, logger);
    await cursors.set(CHILD, "2026-11-21T15:00:00+01:00,0b8a6d5e-0000-4000-8000-000000000001");
    expect(await cursors.get(CHILD)).toBe("2026-11-21T15:00:00+01:00,0b8a6d5e-0000-4000-8000-000000000001");
    expect(warnings()).toEqual([]);
  });

  it.each([
    ["an object", { oops: 12345 }],
    ["a number", 12345],
    ["empty text", ""],
    ["text with a line break", "2026-11-21T15:00:00Z,\nid"],
  ])("is set aside when it is %s: one warning, then none", async (_what, damaged) => {
    const { store, logger, warnings } = await opened();
    await store.set(`cursor:${CHILD}`, damaged);
    const cursors = cursorStoreOn(store, logger);
    expect(await cursors.get(CHILD)).toBeUndefined();
    expect(await cursors.get(CHILD)).toBeUndefined();
    expect(warnings()).toEqual([
      expect.objectContaining({
        key: `cursor:${CHILD}`,
        msg: expect.stringMatching(/journal cursor.*set aside/),
      }),
    ]);
    await store.flush();
    expect((await readStoreFile(store.path)).entries[`cursor:${CHILD}`]).toBeUndefined();
  });
});

describe("a child's derived facts read back from the data directory", () => {
  it("are the record kept, pending facts included", async () => {
    const { store, logger, warnings } = await opened();
    const derived = derivedStoreOn(store, logger);
    const record = { state: { ...state, latestDay: "2026-11-21" }, pending: [declared("b1")] };
    await derived.set(CHILD, record);
    expect(await derived.get(CHILD)).toEqual(record);
    expect(warnings()).toEqual([]);
  });

  it("lose a malformed pending fact alone, with one warning: the others are still sent", async () => {
    const { store, logger, warnings } = await opened();
    const broken = { ...declared("b2"), label: 42 };
    const otherChilds = { ...declared("b3"), childId: "someone-else" };
    const pending = [declared("b1"), broken, declared("b4"), otherChilds];
    await store.set(`derived:${CHILD}`, JSON.parse(JSON.stringify({ state, pending })));
    const derived = derivedStoreOn(store, logger);
    expect((await derived.get(CHILD))?.pending).toEqual([declared("b1"), declared("b4")]);
    expect(warnings()).toEqual([expect.objectContaining({ key: `derived:${CHILD}`, facts: 2 })]);
    // Written back without them: the next run says nothing more.
    expect((await derived.get(CHILD))?.pending).toHaveLength(2);
    expect(warnings()).toHaveLength(1);
  });

  it("are set aside whole when the kept reading itself is damaged", async () => {
    const { store, logger, warnings } = await opened();
    await store.set(`derived:${CHILD}`, { state: { last: { date: "yesterday" }, sessions: 0 }, pending: [] });
    expect(await derivedStoreOn(store, logger).get(CHILD)).toBeUndefined();
    expect(warnings()).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/kept reading.*set aside/) }),
    ]);
  });
});

describe("the bridge's own memories read back from the data directory", () => {
  it("keep the bridge's identity across its restarts", async () => {
    const { store, logger, warnings } = await opened();
    const first = await bridgeIdentityOn(store, logger);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bridgeIdentityOn(store, logger)).toBe(first);
    expect(warnings()).toEqual([]);
  });

  it("replace a damaged identity with a new one, said once", async () => {
    const { store, logger, warnings } = await opened();
    await store.set("instance_id", "x".repeat(300));
    const drawn = await bridgeIdentityOn(store, logger);
    expect(drawn).toMatch(/^[0-9a-f-]{36}$/);
    expect(await bridgeIdentityOn(store, logger)).toBe(drawn);
    expect(warnings()).toEqual([
      expect.objectContaining({ msg: expect.stringMatching(/identity.*new one/) }),
    ]);
  });

  it("give back the settled slugs and what was offered to Assist, and set aside what does not fit", async () => {
    const { store, logger, warnings } = await opened();
    await slugMemoryOn(store, logger).save({ [CHILD]: "lea" });
    expect(await slugMemoryOn(store, logger).load()).toEqual({ [CHILD]: "lea" });
    const offered = {
      exposed: ["sensor.reward_facts_lea_streak"],
      aliases: { "sensor.reward_facts_lea_streak": "" },
    };
    await assistMemoryOn(store, logger).save(offered);
    expect(await assistMemoryOn(store, logger).load()).toEqual(offered);
    expect(warnings()).toEqual([]);

    await store.set("entity_slugs", { [CHILD]: "Léa with spaces" });
    await store.set("assist", { exposed: "all" });
    expect(await slugMemoryOn(store, logger).load()).toBeUndefined();
    expect(await assistMemoryOn(store, logger).load()).toBeUndefined();
    expect(warnings().map((line) => line.key)).toEqual(["entity_slugs", "assist"]);
  });
});
