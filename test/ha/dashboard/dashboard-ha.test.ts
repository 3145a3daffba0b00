import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard, dashboardPlace } from "../../../src/ha/dashboard/build-dashboard.js";
import { removeDashboard, writeDashboard } from "../../../src/ha/dashboard/dashboard-writer.js";
import { dashboardLayout } from "../../../src/ha/dashboard/layout.js";
import type { LovelaceCard, LovelaceConfig, LovelaceView } from "../../../src/ha/dashboard/lovelace.js";
import { marked } from "../../../src/ha/dashboard/marker.js";
import {
  type ChildIdentity,
  childEntities,
  statusEntity,
  unavailableChildEntities,
} from "../../../src/ha/entities/entities.js";
import { contractNames, EntityNames } from "../../../src/ha/entities/entity-names.js";
import { HomeAssistantLink } from "../../../src/ha/link/connection.js";
import { en } from "../../../src/ha/texts/en.js";
import { silentLogger } from "../../../src/log/logger.js";
import {
  type FrontendTokens,
  HOME_ASSISTANT_SETUP_TIMEOUT_MS,
  type HomeAssistantInstance,
  launchChromium,
  openFrontend,
  screenshot,
  signInTestUser,
  startHomeAssistant,
  testedHomeAssistantVersion,
  visibleTexts,
} from "../../lab/index.js";
import { sampleCalmDay, sampleToday } from "../../support/facts.js";

// The dashboard in a real Home Assistant, on each release the add-on supports, in the layout of
// that release (the sections layout on 2026.11, the older one on 2024.3.3): made through the
// websocket, saved and read back, never saved over an edit; its templates rendered by Home
// Assistant itself; each view drawn by the release's own frontend without an error card. The
// children's states are the bridge's REST-made ones, written from its mapping.

const version = testedHomeAssistantVersion();
const root = fileURLToPath(new URL("../../..", import.meta.url));

const lea: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000001", firstName: "Léa", slug: "lea" };
const noah: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000002", firstName: "Noah", slug: "noah" };
const ines: ChildIdentity = { id: "7f3c2a10-0000-4000-8000-000000000003", firstName: "Inès", slug: "ines" };
const place = dashboardPlace(contractNames, en);

let ha: HomeAssistantInstance;
let link: HomeAssistantLink;
let browser: Browser;
let tokens: FrontendTokens;

async function writeStates(states: ReturnType<typeof childEntities>): Promise<void> {
  for (const state of states) {
    const written = await ha.api("POST", `/api/states/${state.entityId}`, {
      state: state.state,
      attributes: state.attributes,
    });
    expect(written.status, state.entityId).toBeLessThan(300);
  }
}

const storedConfig = () =>
  ha.wsCommand<Record<string, unknown>>({ type: "lovelace/config", url_path: place.urlPath });

beforeAll(async () => {
  // The recorder and its history, as a household has them (default_config): the week's chart.
  ha = await startHomeAssistant({ version, extraConfig: "recorder:\nhistory:\n" });
  // The day a parent looks at: Léa at home with a session running, Noah at the other home, Inès
  // whose rules the app has not synced yet.
  const session = { running: true, endsAt: new Date(Date.now() + 18 * 60_000).toISOString(), minutes: 20 };
  await writeStates([
    ...childEntities(contractNames, en, lea, { ...sampleToday, session }, Date.now()),
    ...childEntities(contractNames, en, noah, sampleCalmDay, Date.now()),
    ...unavailableChildEntities(contractNames, en, ines, "rules_not_synced"),
    // Their weeks as the bridge says them once the statistics hold days: the chart's (the week
    // while it fills has a suite of its own, parts/screen-time-week.test.ts).
    ...[lea, noah].map((child) => ({
      entityId: contractNames.childExtra(child.slug, "screen_time_days"),
      state: "chart",
      attributes: { days: [] },
    })),
    statusEntity(contractNames, en, {
      state: "ok",
      requestsLastMinute: 9,
      budgetPerMinute: 28,
      demandPerMinute: 9,
      stretch: 1,
      todayStretch: 1,
      children: [lea, noah, ines],
      rateLimitedCount: 0,
      lastError: null,
      lastTurnAt: Date.now(),
    }),
  ]);
  link = new HomeAssistantLink({
    url: ha.url,
    token: ha.token,
    logger: silentLogger(),
    requireAdmin: true,
  });
  await link.open();
  await link.whenReady(AbortSignal.timeout(30_000));
  [browser, tokens] = await Promise.all([launchChromium(), signInTestUser(ha)]);
}, HOME_ASSISTANT_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  link?.close();
  await ha?.stop();
});

const household = (children = [lea, noah, ines]): LovelaceConfig =>
  buildDashboard({ names: contractNames, texts: en, children, mode: "rest", haVersion: link.haVersion });

/** The cards of a view, whatever its layout. */
const cardsIn = (view: LovelaceView): LovelaceCard[] =>
  "sections" in view ? view.sections.flatMap((section) => section.cards) : view.cards;

/** What each release draws: the sections layout from 2024.11, the older one before. */
const layout = version === "2024.3.3" ? "masonry" : "sections";

/** Every markdown text of the configuration, rendered by Home Assistant's template engine. */
async function renderedTexts(config: LovelaceConfig): Promise<string[]> {
  const contents: string[] = [];
  const walk = (cards: readonly LovelaceCard[]) => {
    for (const card of cards) {
      if (typeof card.content === "string") contents.push(card.content);
      walk((card.cards as LovelaceCard[] | undefined) ?? []);
      if (card.card) walk([card.card as LovelaceCard]);
    }
  };
  walk(config.views.flatMap(cardsIn));
  const rendered: string[] = [];
  for (const template of contents) {
    const answer = await ha.api<string>("POST", "/api/template", { template });
    expect(answer.status, `${template}\n${answer.body}`).toBe(200);
    rendered.push(answer.body);
  }
  return rendered;
}

describe(`the Rewards dashboard in a real Home Assistant ${version}`, () => {
  it(`is made in the sidebar through the websocket in the ${layout} layout, and Home Assistant keeps the configuration as written`, async () => {
    // The release as the bridge reads it from Home Assistant, not as the test knows it.
    expect(link.haVersion).toBe(version);
    expect(dashboardLayout(link.haVersion)).toBe(layout);
    expect("sections" in (household().views[0] as LovelaceView)).toBe(layout === "sections");
    expect(await writeDashboard(link, place, household())).toBe("created");
    const dashboards = await ha.wsCommand<Array<Record<string, unknown>>>({
      type: "lovelace/dashboards/list",
    });
    expect(dashboards).toContainEqual(
      expect.objectContaining({
        url_path: "reward-facts",
        title: "Rewards",
        show_in_sidebar: true,
        mode: "storage",
      }),
    );
    expect(await storedConfig()).toEqual(marked(household()));
  });

  it("is written again only when the children change", async () => {
    expect(await writeDashboard(link, place, household())).toBe("unchanged");
    expect(await writeDashboard(link, place, household([lea, noah]))).toBe("updated");
    expect(await writeDashboard(link, place, household())).toBe("updated");
    expect(await storedConfig()).toEqual(marked(household()));
  });

  it("says what a parent needs in words: Home Assistant renders each text of it", async () => {
    const texts = await renderedTexts(household());
    const joined = texts.join("\n---\n");
    expect(joined).not.toMatch(/\{\{|\{%|None/);
    expect(joined).toContain("**7** of 12 points");
    expect(joined).toContain("**4** days in a row");
    expect(joined).toMatch(/Make the bed \*\(must\)\* · validated/);
    expect(joined).toMatch(/Homework \*\(must\)\* · done, to check/);
    expect(joined).toContain("Set the table · to do");
    expect(joined).toContain("Noah's minutes and points are counted there today");
    expect(joined).toContain('<ha-alert alert-type="info" title="Inès: no rules synced yet">');
    expect(joined).toContain("Open the app once on a parent's device");
    // The bridge's alert in words: its message, never its raw state nor the API's last error.
    expect(joined).toContain('<ha-alert alert-type="warning" title="Reward Facts bridge">');
    expect(joined).not.toMatch(/Reward Facts: ok|last_error/);
  });

  it("is drawn by this release's own frontend without an error card: each child's minutes, the other home, the reason", async () => {
    const page = await openFrontend(browser, tokens, `/${place.urlPath}/today`, { width: 1280, height: 900 });
    try {
      await page.getByText("At the other home today").waitFor({ timeout: 30_000 });
      await page.getByText("Inès: no rules synced yet").waitFor();
      expect(await page.locator("hui-gauge-card").count()).toBe(1);
      // The gauge's number, in its own words on each release: "25m" on 2026, "25 min" on 2024.3.
      await expect
        .poll(() => visibleTexts(page, "hui-gauge-card"))
        .toEqual([expect.stringMatching(/^25 ?m(in)? Minutes left$/)]);
      await expect
        .poll(() => visibleTexts(page, "hui-entities-card"))
        .toEqual([expect.stringMatching(/^Session ends In 1[78] minutes$/)]);
      if (layout === "sections") {
        // Each child's name heads her section; Léa's points and streak beside it, as badges.
        await expect
          .poll(() => visibleTexts(page, "hui-heading-card"))
          .toEqual([expect.stringMatching(/^Léa 7 4 ?d$/), "Noah", "Inès"]);
        // Each child at home's minutes on top of the view, under her name.
        await expect
          .poll(() => visibleTexts(page, "hui-view-badges"))
          .toEqual([expect.stringMatching(/^Léa 25 ?m(in)?$/)]);
        // Léa's week and Noah's (at the other home today); none for Inès, who cannot be read.
        await expect
          .poll(() => visibleTexts(page, "hui-statistics-graph-card"))
          .toEqual([
            expect.stringContaining("Screen time per day"),
            expect.stringContaining("Screen time per day"),
          ]);
        for (const text of await visibleTexts(page, "hui-statistics-graph-card"))
          expect(text).not.toMatch(/disabled|not found|unavailable/i);
      }
      expect(await page.locator("hui-error-card").count()).toBe(0);
      await screenshot(page, `dashboard-ha-${version}`);
    } catch (error) {
      await page.screenshot({ path: "/tmp/rf-dashboard-failure.png" });
      throw error;
    } finally {
      await page.context().close();
    }
  }, 60_000);

  it(layout === "sections"
    ? "gives each child a view of her own, drawn without an error card: hers only"
    : "keeps to the one view of the older layout", async () => {
    if (layout === "masonry") {
      expect((await storedConfig()).views).toHaveLength(1);
      return;
    }
    const page = await openFrontend(browser, tokens, `/${place.urlPath}/lea`, { width: 1280, height: 800 });
    try {
      await expect
        .poll(() => visibleTexts(page, "hui-gauge-card"), { timeout: 30_000 })
        .toEqual([expect.stringMatching(/^25 ?m(in)? Minutes left$/)]);
      expect(await visibleTexts(page, "hui-heading-card")).toEqual([expect.stringMatching(/^Léa 7 4 ?d$/)]);
      await expect
        .poll(() => visibleTexts(page, "hui-entities-card"))
        .toEqual([expect.stringMatching(/^Session ends In 1[78] minutes$/)]);
      expect(await page.locator("hui-statistics-graph-card").count()).toBe(1);
      expect(await page.locator("hui-error-card").count()).toBe(0);
      await screenshot(page, `dashboard-ha-lea-${version}`);
    } catch (error) {
      await page.screenshot({ path: "/tmp/rf-dashboard-failure.png" });
      throw error;
    } finally {
      await page.context().close();
    }
  }, 60_000);

  it("is left as it is, and says so, once someone edits it", async () => {
    const edited = structuredClone(await storedConfig()) as unknown as LovelaceConfig;
    const first = edited.views[0] as LovelaceView;
    const editedCards = "sections" in first ? (first.sections[1]?.cards ?? []) : first.cards;
    editedCards.unshift({ type: "markdown", content: "Our own note" });
    await ha.wsCommand({ type: "lovelace/config/save", url_path: place.urlPath, config: edited });
    expect(await writeDashboard(link, place, household([lea]))).toBe("changed_by_user");
    expect(await storedConfig()).toEqual(edited);
    // The demo's own dashboard beside it: removed when unchanged, left once edited.
    const demo = new EntityNames("reward_facts_demo");
    const demoPlace = dashboardPlace(demo, en);
    const demoConfig = buildDashboard({
      names: demo,
      texts: en,
      children: [lea],
      mode: "rest",
      haVersion: link.haVersion,
    });
    expect(await writeDashboard(link, demoPlace, demoConfig)).toBe("created");
    expect(await removeDashboard(link, demoPlace)).toBe(true);
    expect(await writeDashboard(link, demoPlace, demoConfig)).toBe("created");
    await ha.wsCommand({
      type: "lovelace/config/save",
      url_path: demoPlace.urlPath,
      config: { ...demoConfig, title: "Mine now" },
    });
    expect(await removeDashboard(link, demoPlace)).toBe(false);
    const urls = (await ha.wsCommand<Array<{ url_path: string }>>({ type: "lovelace/dashboards/list" }))
      .map((dashboard) => dashboard.url_path)
      .filter((url) => url.startsWith("reward-facts"));
    expect(urls.sort()).toEqual(["reward-facts", "reward-facts-demo"]);
  });

  it("is made once by `npm run dashboard` from the children Home Assistant shows", async () => {
    await ha.wsCommand({
      type: "lovelace/dashboards/delete",
      dashboard_id: await dashboardId(place.urlPath),
    });
    const command = (env: Record<string, string>) =>
      promisify(execFile)("npm", ["run", "--silent", "dashboard"], {
        cwd: root,
        timeout: 60_000,
        env: { ...process.env, ...env },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const made = await command({ HA_URL: ha.url, HA_TOKEN: ha.token });
    expect(made).toMatchObject({ code: 0 });
    expect(made.stdout).toContain(
      `created the Rewards dashboard for Inès, Léa, Noah (rest entities): ${ha.url}/reward-facts`,
    );
    expect(await storedConfig()).toEqual(
      marked(
        buildDashboard({
          names: contractNames,
          texts: en,
          // Léa's gauge topped at her unlocked minutes, as her states show them.
          children: [ines, { ...lea, gaugeMax: sampleToday.minutesUnlocked }, noah],
          mode: "rest",
          haVersion: version,
        }),
      ),
    );
    expect(await command({ HA_URL: ha.url, HA_TOKEN: ha.token })).toMatchObject({ code: 0 });
    const refused = await command({ HA_URL: "", HA_TOKEN: "" });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toEqual([
      "HA_URL: required (e.g. http://homeassistant.local:8123)",
      "HA_TOKEN: required (a long-lived token of an administrator)",
    ]);
    for (const output of [made.stdout, made.stderr]) expect(output).not.toContain(ha.token);
  }, 120_000);
});

async function dashboardId(urlPath: string): Promise<string> {
  const dashboards = await ha.wsCommand<Array<{ id: string; url_path: string }>>({
    type: "lovelace/dashboards/list",
  });
  const found = dashboards.find((dashboard) => dashboard.url_path === urlPath);
  if (!found) throw new Error(`no dashboard at ${urlPath}`);
  return found.id;
}
