import type { Browser, Page } from "playwright-core";
import { dashboardPlace } from "../../../src/ha/dashboard/build-dashboard.js";
import { contractNames } from "../../../src/ha/entity-names.js";
import { en } from "../../../src/ha/texts/en.js";
import { type FrontendTokens, openFrontend, visibleTexts } from "../../lab/index.js";

/*
 * The Rewards dashboard as a person reads it in the browser: one column per child, under the
 * child's name. The browser tests compare these words with what the simulated service says of
 * the child, so a wrong mapping, a wrong card or a card that does not draw fails them.
 */

export const REWARDS_PATH = `/${dashboardPlace(contractNames, en).urlPath}/today`;

/** A desktop window, and a phone's (an iPhone 12 to 15 is 390 × 844 CSS pixels). */
export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export function openRewards(
  browser: Browser,
  tokens: FrontendTokens,
  viewport: { width: number; height: number },
): Promise<Page> {
  return openFrontend(browser, tokens, REWARDS_PATH, viewport);
}

/**
 * The visible words of each child's column (its vertical stack, whose title is the first name),
 * keyed by that name. A column not drawn (yet) is absent.
 */
export async function childColumns(page: Page, firstNames: readonly string[]): Promise<Map<string, string>> {
  const columns = new Map<string, string>();
  for (const text of await visibleTexts(page, "hui-vertical-stack-card")) {
    const name = firstNames.find((first) => text.startsWith(`${first} `) || text === first);
    if (name) columns.set(name, text);
  }
  return columns;
}

/** The words of one child's column, "" while it is not drawn. */
export async function columnOf(page: Page, firstName: string): Promise<string> {
  return (await childColumns(page, [firstName])).get(firstName) ?? "";
}

/**
 * The minutes as the gauge writes them under its name "Minutes left": the number and the unit of
 * a duration in minutes, which each release abbreviates its own way ("25m" on 2026, "25 min" on
 * 2024.3), and above an hour possibly in hours and minutes.
 */
export function gaugeMinutesPattern(minutes: number): RegExp {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const asMinutes = `${minutes} ?m(?:in)?`;
  const asHours = hours > 0 ? `|${hours} ?h(?: ${rest} ?m(?:in)?)?` : "";
  return new RegExp(`(?:^| )(?:${asMinutes}${asHours}) Minutes left(?: |$)`);
}

/** Screen-space boxes of the children's columns, to tell one column from side by side. */
export async function columnBoxes(page: Page): Promise<Array<{ x: number; y: number; width: number }>> {
  const stacks = page.locator("hui-vertical-stack-card");
  const boxes: Array<{ x: number; y: number; width: number }> = [];
  for (let i = 0; i < (await stacks.count()); i++) {
    const box = await stacks.nth(i).boundingBox();
    if (box) boxes.push({ x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width) });
  }
  return boxes;
}
