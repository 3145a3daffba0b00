import type { Browser, Page } from "playwright-core";
import { dashboardPlace } from "../../../src/ha/dashboard/build-dashboard.js";
import { contractNames } from "../../../src/ha/entities/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { localDateOf } from "../../../src/time/zoned.js";
import { type FrontendTokens, openFrontend, visibleTexts } from "../../lab/index.js";

/*
 * The Rewards dashboard as a person reads it in the browser: a section per child, under the
 * child's name (its heading card). The browser tests compare these words with what the simulated
 * service says of the child, so a wrong mapping, a wrong card or a card that does not draw fails
 * them.
 */

const DASHBOARD = `/${dashboardPlace(contractNames, en).urlPath}`;

/** The Today view, and a child's own view (her slug). */
export const REWARDS_PATH = `${DASHBOARD}/today`;
export const childViewPath = (slug: string) => `${DASHBOARD}/${slug}`;

/** A desktop window, a phone's (an iPhone 12 to 15 is 390 × 844 CSS pixels), a wall tablet's. */
export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export const TABLET = { width: 1280, height: 800 } as const;

/** The household's zone, which the harness gives Home Assistant and the browser alike. */
export const HOUSEHOLD_ZONE = "Europe/Paris";

export function openRewards(
  browser: Browser,
  tokens: FrontendTokens,
  viewport: { width: number; height: number; locale?: string; hideSidebar?: boolean },
  path = REWARDS_PATH,
): Promise<Page> {
  return openFrontend(browser, tokens, path, viewport);
}

/** A child's section: the grid section whose heading is her first name. */
const SECTION = "hui-grid-section";

/**
 * The visible words of each child's section, keyed by her first name (its heading's first word).
 * A section not drawn (yet) is absent.
 */
export async function childSections(page: Page, firstNames: readonly string[]): Promise<Map<string, string>> {
  const sections = new Map<string, string>();
  for (const text of await visibleTexts(page, SECTION)) {
    const name = firstNames.find((first) => text.startsWith(`${first} `) || text === first);
    if (name) sections.set(name, text);
  }
  return sections;
}

/** The words of the view's badges on top: each child at home, her first name and her minutes. */
export async function topBadges(page: Page): Promise<string> {
  return (await visibleTexts(page, "hui-view-badges")).join(" ");
}

/**
 * The minutes as the gauge writes them under its name ("Minutes left" in English): the number and
 * the unit of a duration in minutes, which each release abbreviates its own way ("25m" on 2026,
 * "25 min" on 2024.3), and above an hour possibly in hours and minutes.
 */
export function gaugeMinutesPattern(minutes: number, label = "Minutes left"): RegExp {
  return new RegExp(`(?:^| )(?:${durationPattern(minutes)}) ${label}(?: |$)`);
}

/** A duration in minutes as the frontend writes it: "25m", "25 min", "1h 5m", "2h". */
export function durationPattern(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const asMinutes = `${minutes} ?m(?:in)?`;
  const asHours = hours > 0 ? `|${hours} ?h(?: ${rest} ?m(?:in)?)?` : "";
  return `${asMinutes}${asHours}`;
}

/** Where a child's section is drawn, in CSS pixels from the window's top left. */
export interface SectionBox {
  name: string;
  x: number;
  y: number;
  width: number;
  right: number;
  bottom: number;
}

/** Screen-space boxes of the children's sections, in the order drawn, to tell side by side from stacked. */
export async function sectionBoxes(page: Page, firstNames: readonly string[]): Promise<SectionBox[]> {
  const sections = page.locator(SECTION);
  const texts = await visibleTexts(page, SECTION);
  const boxes: SectionBox[] = [];
  for (let i = 0; i < texts.length; i++) {
    const name = firstNames.find((first) => texts[i]?.startsWith(`${first} `) || texts[i] === first);
    const box = name ? await sections.nth(i).boundingBox() : null;
    if (name && box)
      boxes.push({
        name,
        x: Math.round(box.x),
        y: Math.round(box.y),
        width: Math.round(box.width),
        right: Math.round(box.x + box.width),
        bottom: Math.round(box.y + box.height),
      });
  }
  return boxes;
}

/**
 * How far down the page the first child's section ends (with a margin): a phone's picture down to
 * there shows the view's badges and all of her section, her week's bars included.
 */
export async function firstSectionBottom(page: Page, firstNames: readonly string[]): Promise<number> {
  const [first] = await sectionBoxes(page, firstNames);
  if (!first) throw new Error("no child's section is drawn");
  const scrolled = await page.evaluate(() => window.scrollY);
  return first.bottom + scrolled + 12;
}

/** How far the page can be scrolled sideways, in CSS pixels: 0 when nothing is wider than the window. */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => {
    let widest = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    // The frontend scrolls inside its own containers too, shadow roots included.
    const visit = (root: Document | ShadowRoot) => {
      for (const element of Array.from(root.querySelectorAll("*"))) {
        const style = getComputedStyle(element);
        if (["auto", "scroll"].includes(style.overflowX))
          widest = Math.max(widest, element.scrollWidth - element.clientWidth);
        if (element.shadowRoot) visit(element.shadowRoot);
      }
    };
    visit(document);
    return widest;
  });
}

/** A chart's bars: the series the week's chart draws, each bar its day (local date) and height. */
export interface WeekChart {
  /** The series' kinds: `bar`. */
  types: string[];
  bars: Map<string, number>;
}

/**
 * The week's chart of each child's section (keyed by first name), as drawn: the bars of its series
 * (the frontend draws them on a canvas, so they are read from the chart's data). A section without
 * a name of its own (the second of a child's own view) is hers when one name is given.
 */
export async function weekCharts(page: Page, firstNames: readonly string[]): Promise<Map<string, WeekChart>> {
  const sections = page.locator(SECTION);
  const [texts, found] = await Promise.all([
    visibleTexts(page, SECTION),
    sections.evaluateAll((elements) => {
      // Every match under `root`, its own shadow tree and every shadow tree below included.
      const all = (root: Element | ShadowRoot, selector: string): Element[] => {
        const here = Array.from(root.querySelectorAll(selector));
        if (root instanceof Element && root.shadowRoot) here.push(...all(root.shadowRoot, selector));
        for (const element of Array.from(root.querySelectorAll("*")))
          if (element.shadowRoot) here.push(...all(element.shadowRoot, selector));
        return here;
      };
      return elements.map((section) => {
        const card = all(section, "hui-statistics-graph-card")[0];
        const chart = card
          ? (all(card, "ha-chart-base")[0] as (Element & { data?: unknown }) | undefined)
          : undefined;
        const series = (Array.isArray(chart?.data) ? chart.data : []) as Array<{
          type?: string;
          data?: unknown;
        }>;
        return {
          types: series.map((one) => String(one.type)),
          points: series.flatMap((one) =>
            Array.isArray(one.data) ? (one.data as unknown[][]).map((point) => [point[0], point[1]]) : [],
          ) as Array<[number, number]>,
        };
      });
    }),
  ]);
  const charts = new Map<string, WeekChart>();
  found.forEach((section, i) => {
    const text = texts[i] ?? "";
    const name =
      firstNames.find((first) => text.startsWith(`${first} `) || text === first) ??
      (firstNames.length === 1 ? firstNames[0] : undefined);
    if (!name || section.types.length === 0) return;
    charts.set(name, {
      types: section.types,
      bars: new Map(section.points.map(([start, value]) => [localDateOf(start, HOUSEHOLD_ZONE), value])),
    });
  });
  return charts;
}
