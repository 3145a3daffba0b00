import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Today } from "../../src/api/schemas.js";
import { type ChildIdentity, childEntities } from "../../src/ha/entities/entities.js";
import { childEntityId, contractNames } from "../../src/ha/entities/entity-names.js";
import { en } from "../../src/ha/texts/en.js";
import { addDays, localDateOf, localDayStartMs } from "../../src/time/zoned.js";
import {
  type EventRecorder,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../lab/index.js";
import { stringifyHaYaml } from "../support/blueprint-yaml.js";
import { sampleCalmDay, sampleToday } from "../support/facts.js";
import { oneDayAhead } from "../support/household-days.js";
import { readText } from "./supervisor-rules.js";

// The weekly digest in a real Home Assistant: two weeks of a child's screen time and behaviors in
// the recorder's long-term statistics (imported as the recorder keeps a summed sensor's), her
// states as the bridge writes them (REST), and automations made from the English and the French
// blueprint whose time trigger comes a few seconds later, on today's weekday. What each sends is
// read back: a notification in Home Assistant and a phone (English), the actions' message
// (French). The blueprint reads the statistics with recorder.get_statistics, new in 2025.6: this
// suite runs on the current release only (not in vitest.config.ts's onOldestToo; 2024.3.3 has no
// such action, and the bridge does not offer the blueprint there).

const version = testedHomeAssistantVersion();
const ZONE = "Europe/Paris";
const HOUR = 3_600_000;

const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const noah: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000002", firstName: "Noah", slug: "noah" };

// Léa's last 14 days, oldest first, today last: the 7 before the week (165 min), then the week
// (200 min, 12 behaviors validated). Noah's statistics begin 4 days ago (a bridge installed this
// week, its first row a zero): 30 min over the 4 days they hold, and no behaviors recorded.
const leaMinutes = [20, 25, 30, 20, 25, 20, 25, 30, 40, 25, 35, 20, 30, 20];
const leaBehaviors = [1, 1, 2, 1, 1, 1, 1, 2, 1, 3, 2, 1, 2, 1];
const noahMinutes = [10, 15, 5];

// The recorder's own statistics of the live sensors would land on the imported ones at its next
// compile: it leaves them alone here, and the figures stay the ones imported. A parent's phone, as
// the Home Assistant app's notify action takes a message: what it is sent comes back as an event.
const extraConfig = `
recorder:
  exclude:
    entity_globs:
      - sensor.reward_facts_*_minutes_consumed
      - sensor.reward_facts_*_behaviors
script:
  phone:
    sequence:
      - event: phone_notified
        event_data:
          title: "{{ title }}"
          message: "{{ message }}"
`;

let ha: HomeAssistantInstance;
const recorders: Record<string, EventRecorder> = {};

/**
 * `perDay` (oldest first, today's last) as the long-term statistics of `entityId`, the days ending
 * today: hourly rows with a running sum, as the recorder keeps a total_increasing sensor's. A zero
 * row a day before the first; each day's row late in its afternoon, today's at the current hour.
 */
async function importDays(entityId: string, perDay: readonly number[], unit: "min" | null): Promise<void> {
  const now = Date.now();
  const today = localDateOf(now, ZONE);
  const dates = perDay.map((_, i) => addDays(today, i - (perDay.length - 1)));
  const rows = [
    {
      start: new Date(localDayStartMs(addDays(dates[0] as string, -1), ZONE) + HOUR).toISOString(),
      state: 0,
      sum: 0,
    },
  ];
  let sum = 0;
  perDay.forEach((value, i) => {
    sum += value;
    const date = dates[i] as string;
    const at = date === today ? Math.floor(now / HOUR) * HOUR : localDayStartMs(date, ZONE) + 17 * HOUR;
    rows.push({ start: new Date(at).toISOString(), state: value, sum });
  });
  await ha.wsCommand({
    type: "recorder/import_statistics",
    metadata: {
      source: "recorder",
      statistic_id: entityId,
      name: null,
      has_sum: true,
      mean_type: 0,
      unit_class: unit === "min" ? "duration" : null,
      unit_of_measurement: unit,
    },
    stats: rows,
  });
}

async function writeStates(states: ReturnType<typeof childEntities>): Promise<void> {
  for (const state of states) {
    const written = await ha.api("POST", `/api/states/${state.entityId}`, {
      state: state.state,
      attributes: state.attributes,
    });
    expect(written.status, state.entityId).toBeLessThan(300);
  }
}

/** `at` in Home Assistant's zone: its time of day (`HH:MM:SS`) and weekday (`sun`). */
function localTime(at: number): { time: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: ZONE,
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      weekday: "short",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
    weekday: String(parts.weekday).toLowerCase(),
  };
}

const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

beforeAll(async () => {
  ha = await startHomeAssistant({ version, timeZone: ZONE, extraConfig });
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  for (const recorder of Object.values(recorders)) await recorder.close();
  await ha?.stop();
});

describe(`the weekly digest, Home Assistant ${version}`, () => {
  it("sends each child's week from the statistics beside the week before, her streak and the behaviors validated, at the chosen time and weekday, in English and in French", async () => {
    // The statistics' days and the digest's must be the same: not across midnight.
    await oneDayAhead(ZONE, 3 * 60_000);
    // Léa at home with a 5-day streak; Noah at the other home today (no streak to tell).
    await writeStates([
      ...childEntities(contractNames, en, lea, { ...sampleToday, streakDays: 5 } as Today, Date.now()),
      ...childEntities(contractNames, en, noah, sampleCalmDay, Date.now()),
    ]);
    await importDays(childEntityId("lea", "minutes_consumed"), leaMinutes, "min");
    await importDays(childEntityId("lea", "behaviors"), leaBehaviors, null);
    await importDays(childEntityId("noah", "minutes_consumed"), noahMinutes, "min");

    // The blueprints where Home Assistant keeps them, as importing them leaves them.
    for (const folder of ["reward_facts", "reward_facts_fr"]) {
      const target = join(ha.configDir, "blueprints/automation", folder);
      await mkdir(target, { recursive: true });
      await writeFile(
        join(target, "weekly_digest.yaml"),
        readText(`addon/blueprints/automation/${folder}/weekly_digest.yaml`),
      );
    }
    for (const type of ["phone_notified", "rf_digest_fr", "rf_digest_other_day"])
      recorders[type] = await ha.subscribeEvents(type);

    // A few seconds from now, on today's weekday; another automation on every other day.
    const firesAt = Date.now() + 30_000;
    const { time, weekday } = localTime(firesAt);
    const use = (id: string, path: string, input: Record<string, unknown>) => ({
      id,
      alias: id,
      use_blueprint: { path, input: { time, ...input } },
    });
    await writeFile(
      join(ha.configDir, "automations.yaml"),
      stringifyHaYaml([
        use("digest_en", "reward_facts/weekly_digest.yaml", {
          weekdays: [weekday],
          phones: ["script.phone"],
        }),
        use("digest_fr", "reward_facts_fr/weekly_digest.yaml", {
          weekdays: [weekday],
          digest_actions: [
            { event: "rf_digest_fr", event_data: { title: "{{ title }}", message: "{{ message }}" } },
          ],
        }),
        use("digest_other_day", "reward_facts/weekly_digest.yaml", {
          weekdays: WEEKDAYS.filter((day) => day !== weekday),
          digest_actions: [{ event: "rf_digest_other_day" }],
        }),
      ]),
    );
    await ha.callService("automation", "reload");
    for (const id of ["digest_en", "digest_fr", "digest_other_day"])
      await ha.waitForState(`automation.${id}`, "on", { timeoutMs: 30_000 });
    // Armed before its time: else nothing would fire, and the wait below would say only that.
    expect(Date.now(), "the automations were loaded after the time they were set to").toBeLessThan(
      firesAt - 2_000,
    );

    const notification = await ha
      .waitFor(
        async () =>
          (
            await ha.wsCommand<Array<{ notification_id: string; title: string; message: string }>>({
              type: "persistent_notification/get",
            })
          ).find((shown) => shown.notification_id === "reward_facts_weekly_digest"),
        { timeoutMs: 90_000, description: `the digest's notification at ${time}` },
      )
      .catch(async (error: unknown) => {
        throw new Error(`${(error as Error).message}\n${(await readFile(ha.logPath, "utf8")).slice(-4_000)}`);
      });
    const english = [
      "Léa: 200 min of screen time in the last 7 days, 165 min the 7 days before; a 5-day streak; 12 behaviors validated.",
      "Noah: 30 min of screen time in the last 7 days (4 of them recorded), none recorded the 7 days before.",
    ].join("\n");
    expect(notification).toMatchObject({ title: "Reward Facts - the week", message: english });
    const phone = await ha.waitFor(() => recorders.phone_notified?.events[0], { description: "the phone" });
    expect(phone.data).toEqual({ title: "Reward Facts - the week", message: english });

    const french = await ha.waitFor(() => recorders.rf_digest_fr?.events[0], {
      description: "the French one",
    });
    expect(french.data).toEqual({
      title: "Reward Facts - la semaine",
      message: [
        "Léa : 200 min d'écran ces 7 derniers jours, 165 min les 7 jours d'avant ; une série de 5 jours ; 12 comportements validés.",
        "Noah : 30 min d'écran ces 7 derniers jours (4 jours enregistrés), rien d'enregistré les 7 jours d'avant.",
      ].join("\n"),
    });
    // Not on another weekday (it would have fired with them); and not a word about their config.
    await sleep(2_000);
    expect(recorders.rf_digest_other_day?.events).toEqual([]);
    const log = await readFile(ha.logPath, "utf8");
    expect(
      log.split("\n").filter((line) => /ERROR|WARNING/.test(line) && /weekly_digest|digest_/.test(line)),
    ).toEqual([]);
  }, 180_000);
});
