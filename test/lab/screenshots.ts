import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "playwright-core";
import { machineTmpdir } from "./temp-root.js";

/*
 * Where the browser tests put their screenshots. Every run keeps all of them in a folder of the
 * machine's temporary directory, to look at after a run (or a failure). `npm run screenshots`
 * sets REWARD_FACTS_SCREENSHOTS_FOR_DOCS=1: the ones DOCS and README show are then also written
 * to addon/screenshots/, the only time a test writes into the repository.
 */

export const SCREENSHOTS_DIR = join(machineTmpdir(), "reward-facts-screenshots");
export const DOCS_SCREENSHOTS_DIR = fileURLToPath(new URL("../../addon/screenshots/", import.meta.url));

const forDocs = () => process.env.REWARD_FACTS_SCREENSHOTS_FOR_DOCS === "1";

export interface ScreenshotOptions {
  /** One of the pictures DOCS and README show. */
  docs?: boolean;
  /** Only what the window shows, as on a phone's screen (a page is taken whole otherwise). */
  viewportOnly?: boolean;
  /** Only the page from its top down to `bottom` (CSS pixels): a phone's screen scrolled to there. */
  downTo?: number;
  /**
   * The window made as tall as the page for the picture (and back after it): the frontend's
   * sidebar then reaches the bottom of a long page, where a whole-page picture leaves it short.
   */
  tallWindow?: boolean;
}

/** Takes a PNG of the page (whole) or of one element; returns where it went. */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: ScreenshotOptions = {},
): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  const take = async (file: string) => {
    if (!("goto" in target)) return void (await target.screenshot({ path: file, animations: "disabled" }));
    const width = target.viewportSize()?.width ?? 0;
    const clip = options.downTo === undefined ? undefined : { x: 0, y: 0, width, height: options.downTo };
    await target.screenshot({
      path: file,
      fullPage: !options.viewportOnly,
      animations: "disabled",
      ...(clip ? { clip } : {}),
    });
  };
  const window = "goto" in target ? target.viewportSize() : null;
  if (options.tallWindow && window && "goto" in target) {
    const height = await target.evaluate(() => document.documentElement.scrollHeight);
    if (height > window.height) await target.setViewportSize({ width: window.width, height });
  }
  try {
    await take(path);
    if (options.docs && forDocs()) {
      mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
      await take(join(DOCS_SCREENSHOTS_DIR, `${name}.png`));
    }
  } finally {
    if (options.tallWindow && window && "goto" in target) await target.setViewportSize(window);
  }
  return path;
}
