import { type Browser, chromium } from "playwright-core";
import { ensureDebianProgram } from "./debian-package.js";

/*
 * A real Chromium for the browser tests: Debian's `chromium` package (installed on first use, as
 * root, like Mosquitto), driven by playwright-core, which is a devDependency. Playwright's own
 * browser downloads are not used: `npx playwright install` cannot reach its servers here.
 */

export const CHROMIUM = "/usr/bin/chromium";

/**
 * Headless on a closed network: without the background-networking flags Chromium keeps reaching
 * for Google's services and its connections are refused; the sandbox needs user namespaces a
 * container (or root) may not have.
 */
const flags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Installs Debian's Chromium once per machine; fails with what a person can do otherwise. */
export function ensureChromium(): Promise<void> {
  return ensureDebianProgram({ neededBy: "the browser tests", binary: CHROMIUM, packages: ["chromium"] });
}

/**
 * A headless Chromium on a fresh profile of its own (playwright makes a temporary user data dir
 * per launch and removes it at close). It dies with this process: playwright talks to it over a
 * pipe, which closes when this process ends however it ends.
 */
export async function launchChromium(): Promise<Browser> {
  await ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: flags });
}
