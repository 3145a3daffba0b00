import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Child } from "../../../src/api/schemas.js";
import { childEntityId } from "../../../src/ha/entity-names.js";
import { ApiSimulator, ManualClock } from "../../../src/simulator/index.js";
import {
  type FrontendTokens,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  launchChromium,
  screenshot,
  signInTestUser,
  startHomeAssistant,
  testedHomeAssistantVersion,
} from "../../lab/index.js";
import { BridgeProcess } from "../../support/bridge-process.js";
import { latestAfternoon, nextAfternoon } from "../../support/household-days.js";
import {
  childColumns,
  columnBoxes,
  DESKTOP,
  gaugeMinutesPattern,
  openRewards,
  PHONE,
} from "./rewards-page.js";

// The Rewards dashboard as a parent sees it: the bridge (its own process, dashboard option on)
// reads the simulator's household and makes the dashboard in a real Home Assistant, whose own
// frontend draws it in Debian's Chromium, signed in as the test user. Each scene's words are
// compared with what the simulated service says of each child. Only the simulator's clock is
// faked, to pick the day of each scene; the pictures go to the temporary screenshots folder, and
// those DOCS and README show to addon/screenshots/ under `npm run screenshots`.

const version = testedHomeAssistantVersion();
const clock = new ManualClock(Date.now());

let ha: HomeAssistantInstance;
let sim: ApiSimulator;
let bridge: BridgeProcess;
let browser: Browser;
let tokens: FrontendTokens;
let lea: Child;
let noah: Child;
let ines: Child;

const slugOf: Record<string, string> = { Léa: "lea", Noah: "noah", Inès: "ines" };
const names = () => [lea.firstName, noah.firstName, ines.firstName];

/** The state the bridge must have written for the child's minutes, as the simulator says now. */
function expectedMinutesState(child: Child, synced: boolean): string {
  if (!synced) return "unavailable";
  const today = sim.today(child.id);
  return today.isMyDay ? String(today.minutesRemaining) : "0";
}

function sessionRuns(child: Child): boolean {
  const today = sim.today(child.id);
  return today.isMyDay && today.session?.running === true;
}

/**
 * Whether, at `at`, Noah is at home (or away) and no planned session runs: a session's end is
 * shown from the browser's real clock, which a scene on another day would make read "a day ago".
 */
function quietAt(at: number, noahAtHome: boolean): boolean {
  clock.set(at);
  return sim.isMyDay(noah.id) === noahAtHome && ![lea, noah, ines].some(sessionRuns);
}

/** Until Home Assistant holds what the bridge read of the simulator's current instant. */
async function bridgeCaughtUp(unsynced: readonly Child[] = []): Promise<void> {
  for (const child of [lea, noah, ines]) {
    const slug = slugOf[child.firstName] as string;
    const synced = !unsynced.includes(child);
    await ha.waitFor(
      async () => {
        const minutes = await ha.getState(childEntityId(slug, "minutes_remaining"));
        const myDay = await ha.getState(childEntityId(slug, "my_day"));
        const today = sim.today(child.id);
        return (
          minutes?.state === expectedMinutesState(child, synced) &&
          (!synced || myDay?.state === (today.isMyDay ? "on" : "off"))
        );
      },
      { timeoutMs: 90_000, description: `the bridge's ${child.firstName} as the simulator says now` },
    );
  }
}

/** What a column says of a child at home: the gauge's minutes, points against max, the streak. */
function expectAtHome(column: string, child: Child): void {
  const today = sim.today(child.id);
  if (!today.isMyDay) throw new Error(`${child.firstName} is not at home in this scene`);
  expect(column).toMatch(gaugeMinutesPattern(today.minutesRemaining));
  const max = today.maxPoints === null ? "" : ` of ${today.maxPoints}`;
  expect(column).toContain(`${today.points}${max} points`);
  expect(column).toContain(`${today.streakDays} ${today.streakDays === 1 ? "day" : "days"} in a row`);
  expect(column).not.toContain("At the other home");
}

/** Waits until every child's column is drawn, then checks that no card failed to draw. */
async function drawn(
  page: Page,
  check: (columns: Map<string, string>) => void,
): Promise<Map<string, string>> {
  await expect
    .poll(
      async () => {
        const columns = await childColumns(page, names());
        check(columns);
        return true;
      },
      { timeout: 45_000, interval: 500 },
    )
    .toBe(true)
    .catch(async (error: unknown) => {
      await screenshot(page, "failure-dashboard");
      throw error;
    });
  expect(await page.locator("hui-error-card").count()).toBe(0);
  return childColumns(page, names());
}

beforeAll(async () => {
  [ha, sim] = await Promise.all([startHomeAssistant({ version }), ApiSimulator.start({ clock })]);
  ({ ordinary: lea, custody: noah, unsynced: ines } = sim.children);
  // The ordinary day: every child at home with its rules, at the latest afternoon that has it.
  sim.syncRules(ines.id);
  clock.set(latestAfternoon(sim, Date.now(), (at) => quietAt(at, true)));
  bridge = new BridgeProcess({
    REWARD_FACTS_API_TOKEN: sim.tokens.household,
    REWARD_FACTS_API_BASE_URL: sim.url,
    REWARD_FACTS_EVENTS_INTERVAL_SECONDS: "10",
    REWARD_FACTS_TODAY_INTERVAL_SECONDS: "15",
    REWARD_FACTS_DATA_DIR: await mkdtemp(join(tmpdir(), "rf-browser-")),
    REWARD_FACTS_PUBLISH: "rest",
    REWARD_FACTS_DASHBOARD: "true",
    HA_URL: ha.url,
    HA_TOKEN: ha.token,
  }).start();
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
  await bridgeCaughtUp();
  await ha.waitFor(
    async () =>
      (await ha.wsCommand<Array<{ url_path: string }>>({ type: "lovelace/dashboards/list" })).some(
        (dashboard) => dashboard.url_path === "reward-facts",
      ),
    { timeoutMs: 30_000, description: "the bridge's Rewards dashboard" },
  );
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await bridge?.stop();
  await ha?.stop();
  await sim?.stop();
});

describe(`the Rewards dashboard in Chromium, Home Assistant ${version}`, () => {
  it("on an ordinary day shows each child's minutes left, points and streak, side by side", async () => {
    const page = await openRewards(browser, tokens, DESKTOP);
    try {
      const columns = await drawn(page, (seen) => {
        for (const child of [lea, noah, ines]) {
          expectAtHome(seen.get(child.firstName) ?? "", child);
          expect(seen.get(child.firstName)).not.toContain("Session ends");
        }
      });
      expect([...columns.keys()]).toEqual(["Léa", "Noah", "Inès"]);
      // Side by side on a desktop: three columns on one row.
      const boxes = await columnBoxes(page);
      expect(new Set(boxes.map((box) => box.y)).size).toBe(1);
      expect(new Set(boxes.map((box) => box.x)).size).toBe(3);
      await screenshot(page, "dashboard-ordinary-day", { docs: true });
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it("on a phone 390 px wide shows the same minutes, one child under the other", async () => {
    const page = await openRewards(browser, tokens, PHONE);
    try {
      await drawn(page, (seen) => {
        for (const child of [lea, noah, ines]) {
          expectAtHome(seen.get(child.firstName) ?? "", child);
          expect(seen.get(child.firstName)).not.toContain("Session ends");
        }
      });
      const boxes = await columnBoxes(page);
      expect(boxes).toHaveLength(3);
      expect(new Set(boxes.map((box) => box.x)).size).toBe(1);
      for (const box of boxes) expect(box.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, "dashboard-phone", { docs: true, viewportOnly: true });
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it("while a session runs shows when it ends, as a time from now, under the child's minutes", async () => {
    // Now, in real time: the browser counts the session's end from its own clock.
    clock.set(Date.now());
    // Léa did what she had to, then started a session of 20 minutes.
    for (const behavior of sim.behaviors(lea.id)) {
      sim.addEvent(lea.id, { type: "behavior_validated", behaviorId: behavior.id });
    }
    sim.addEvent(lea.id, { type: "session_started", minutes: 20 });
    await bridgeCaughtUp();
    await ha.waitFor(
      async () => (await ha.getState(childEntityId("lea", "session_running")))?.state === "on",
      { timeoutMs: 60_000, description: "Léa's session running in Home Assistant" },
    );
    const page = await openRewards(browser, tokens, DESKTOP);
    try {
      const columns = await drawn(page, (seen) => {
        const column = seen.get("Léa") ?? "";
        expect(column).toMatch(/Session ends In (19|20) minutes/);
        expectAtHome(column, lea);
      });
      // The others show a session's end only if one of theirs runs too (a planned one, at weekends).
      for (const other of [noah, ines]) {
        expect(columns.get(other.firstName)?.includes("Session ends"), other.firstName).toBe(
          sessionRuns(other),
        );
      }
      await screenshot(page, "dashboard-session-running");
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it("shows a child at the other home calmly, and a child whose rules are not synced with the reason and what to do", async () => {
    // A later day on which Noah is at his other home; Inès's rules have not reached the app yet.
    clock.set(nextAfternoon(sim, Date.now(), (at) => quietAt(at, false)));
    sim.unsyncRules(ines.id);
    await bridgeCaughtUp([ines]);
    const page = await openRewards(browser, tokens, DESKTOP);
    try {
      const columns = await drawn(page, (seen) => {
        expectAtHome(seen.get("Léa") ?? "", lea);
        expect(seen.get("Noah")).toBe(
          "Noah At the other home today Noah's minutes and points are counted there today: nothing to do here.",
        );
        expect(seen.get("Inès")).toMatch(
          /^Inès Inès: no rules synced yet Open the app once on a parent's device; this card changes by itself once the rules arrive\.$/,
        );
      });
      expect(columns.get("Noah")).not.toContain("Minutes left");
      expect(columns.get("Inès")).not.toMatch(/Minutes left|unavailable|Unavailable/);
      await screenshot(page, "dashboard-other-home-and-no-rules");
      await screenshot(page.locator("hui-vertical-stack-card").nth(1), "dashboard-other-home");
      await screenshot(page.locator("hui-vertical-stack-card").nth(2), "dashboard-no-rules-synced");
    } finally {
      await page.context().close();
    }
  }, 150_000);

  it("was made by the bridge itself, whose log keeps the tokens out", () => {
    const said = bridge.text();
    expect(said).toContain("created the Rewards dashboard");
    expect(said).not.toContain(ha.token);
    expect(said).not.toContain(sim.tokens.household);
  });
});
