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
}

/** Takes a PNG of the page (whole) or of one element; returns where it went. */
export async function screenshot(
  target: Page | Locator,
  name: string,
  options: ScreenshotOptions = {},
): Promise<string> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const path = join(SCREENSHOTS_DIR, `${name}.png`);
  const take = (file: string) =>
    "goto" in target
      ? target.screenshot({ path: file, fullPage: !options.viewportOnly, animations: "disabled" })
      : target.screenshot({ path: file, animations: "disabled" });
  await take(path);
  if (options.docs && forDocs()) {
    mkdirSync(DOCS_SCREENSHOTS_DIR, { recursive: true });
    await take(join(DOCS_SCREENSHOTS_DIR, `${name}.png`));
  }
  return path;
}
