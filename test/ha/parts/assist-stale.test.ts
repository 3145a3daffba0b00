import { describe, expect, it } from "vitest";
import { childEntityId, STATUS_ENTITY_ID } from "../../../src/ha/entities/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { testedHomeAssistantVersion } from "../../lab/index.js";
import { assistScene, hourMinute, READ_STATUS, STALE_AFTER_S, say } from "./assist-scene.js";

// Assist's answers when the figures are old, through Home Assistant's own conversation agent
// (the same opening as assist-answers.test.ts): the API unreachable, then holding the bridge back.
// The answers' template is the same on every release: 2026.11.0 only.

const version = testedHomeAssistantVersion();
const scene = assistScene(version);

describe(`Assist with old figures on Home Assistant ${version}`, () => {
  it("gives the last figure, when it was read and why nothing is newer, while the API cannot be reached", async () => {
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    // Every connection to the API cut: the bridge cannot read it, and after three readings Léa's
    // entities are unavailable (the same as with the service stopped: a connection that fails).
    // Her last figures stay with her read status, for the answer.
    scene.sim.failNext(1_000_000, { kind: "cut-off" });
    try {
      await scene.waitUntil(
        async () => (await scene.ha.getState(READ_STATUS))?.attributes.reason_kind === "api_unreachable",
        "Léa unreadable",
      );
      expect((await scene.ha.getState(childEntityId("lea", "minutes_remaining")))?.state).toBe("unavailable");
      const readStatus = await scene.ha.getState(READ_STATUS);
      expect(readStatus?.attributes.last_figures).toMatchObject({ minutes: String(lea.minutesRemaining) });
      expect(await scene.ask("How many minutes does Léa have left?")).toBe(
        [
          say(en.voice.stale, { child: "Léa", time: hourMinute(String(readStatus?.attributes.last_read)) }),
          say(en.voice.minutes_left, { child: "Léa", minutes: lea.minutesRemaining }),
          en.voice.stale_unreachable,
        ].join(" "),
      );
      // A child never read in this run (Inès, whose rules are not synced) has no last figure: the reason.
      expect(await scene.ask("How many minutes does Inès have left?")).toBe(
        say(en.voice.unreadable, { child: "Inès", reason: en.reasons.api_unreachable }),
      );
    } finally {
      scene.sim.clearFaults();
    }
    await scene.waitUntil(
      async () => (await scene.ha.getState(READ_STATUS))?.attributes.reason === null,
      "Léa read again",
    );
  }, 120_000);

  it("says when the figure was read and why nothing is newer while the API holds the bridge back", async () => {
    const lea = scene.sim.today(scene.sim.children.ordinary.id);
    if (!lea.isMyDay) throw new Error("the scene needs Léa at home");
    const minutes = childEntityId("lea", "minutes_remaining");
    // Read again after the test before (if it ran): her figure and when it was read are there.
    await scene.waitUntil(
      async () =>
        (await scene.ha.getState(minutes))?.state === String(lea.minutesRemaining) &&
        Number.isFinite(Date.parse(String((await scene.ha.getState(minutes))?.attributes.last_read))),
      "Léa read",
    );
    // The API holds the bridge back (429, Retry-After 60 s): nothing is read, nothing fails, and
    // Léa's figure ages past three readings while it is still shown. Last: the bridge then reads
    // little for a while (another client seems to use the token).
    scene.sim.failNext(1_000, { kind: "status", status: 429, headers: { "retry-after": "60" } });
    await scene.waitUntil(
      async () => (await scene.ha.getState(STATUS_ENTITY_ID))?.state === "rate_limited",
      "held back",
    );
    const lastRead = String((await scene.ha.getState(minutes))?.attributes.last_read);
    await scene.waitUntil(
      async () => Date.now() - Date.parse(lastRead) > (STALE_AFTER_S + 1) * 1000,
      "Léa's figure older than three readings",
    );
    expect(await scene.ask("How many minutes does Léa have left?")).toBe(
      [
        say(en.voice.stale, { child: "Léa", time: hourMinute(lastRead) }),
        say(en.voice.minutes_left, { child: "Léa", minutes: lea.minutesRemaining }),
        en.voice.stale_rate_limited,
      ].join(" "),
    );
  }, 120_000);
});
