import type { Browser, Page } from "playwright-core";
import { request } from "undici";
import { z } from "zod";
import { TEST_USER } from "./home-assistant-auth.js";
import type { HomeAssistantInstance } from "./home-assistant-types.js";

/*
 * Home Assistant's own frontend in a real browser, signed in as the test user: the login flow a
 * person goes through on the login page (username and password, then the code exchanged for
 * tokens), and the tokens handed to the frontend where it keeps them itself (localStorage
 * `hassTokens`), so every page opens signed in without typing into a form whose markup changes
 * from release to release.
 */

const loginStepSchema = z.object({ flow_id: z.string() });
const loginResultSchema = z.object({ type: z.literal("create_entry"), result: z.string() });
const tokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  token_type: z.string(),
});

/** What the frontend stores after a sign-in. */
export interface FrontendTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  hassUrl: string;
  clientId: string;
  /** When the access token expires (ms); the frontend refreshes it by itself then. */
  expires: number;
}

async function postJson(url: string, body: unknown, form = false, token?: string): Promise<unknown> {
  const response = await request(url, {
    method: "POST",
    headers: {
      "content-type": form ? "application/x-www-form-urlencoded" : "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) {
    throw new Error(`POST ${new URL(url).pathname} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  }
  return text ? (JSON.parse(text) as unknown) : null;
}

/**
 * Signs the test user in through Home Assistant's login flow, and finishes the onboarding steps
 * the harness leaves (the frontend shows the onboarding wizard instead of any page until all are
 * done). Returns the tokens the frontend would keep.
 */
export async function signInTestUser(ha: HomeAssistantInstance): Promise<FrontendTokens> {
  const clientId = `${ha.url}/`;
  const redirectUri = `${ha.url}/?auth_callback=1`;
  const flow = loginStepSchema.parse(
    await postJson(`${ha.url}/auth/login_flow`, {
      client_id: clientId,
      handler: ["homeassistant", null],
      redirect_uri: redirectUri,
    }),
  );
  const login = loginResultSchema.parse(
    await postJson(`${ha.url}/auth/login_flow/${flow.flow_id}`, {
      client_id: clientId,
      username: TEST_USER.username,
      password: TEST_USER.password,
    }),
  );
  const tokens = tokensSchema.parse(
    await postJson(
      `${ha.url}/auth/token`,
      { grant_type: "authorization_code", code: login.result, client_id: clientId },
      true,
    ),
  );
  await finishOnboarding(ha, tokens.access_token, { client_id: clientId, redirect_uri: redirectUri });
  return { ...tokens, hassUrl: ha.url, clientId, expires: Date.now() + tokens.expires_in * 1000 };
}

/**
 * The steps after the owner's account (the harness does that one): the home's settings, analytics,
 * integrations. Each only marks itself done here; the integration step needs the user's own token
 * (a long-lived one has no credential behind it). The home's settings step then adds integrations
 * this offline Home Assistant lacks (met, radio_browser…): that only logs errors, but 2024.3 waits
 * for them and answers 500 after it has marked the step done. What counts is that every step is.
 */
async function finishOnboarding(
  ha: HomeAssistantInstance,
  userToken: string,
  client: { client_id: string; redirect_uri: string },
): Promise<void> {
  const steps = async () =>
    (await ha.api<Array<{ step: string; done: boolean }>>("GET", "/api/onboarding")).body;
  const body: Record<string, unknown> = { core_config: {}, analytics: {}, integration: client };
  const answers: string[] = [];
  for (const { step, done } of await steps()) {
    if (done) continue;
    await postJson(`${ha.url}/api/onboarding/${step}`, body[step] ?? {}, false, userToken).catch(
      (error: unknown) => answers.push((error as Error).message),
    );
  }
  const left = (await steps()).filter((step) => !step.done).map((step) => step.step);
  if (left.length > 0)
    throw new Error(`onboarding steps not done: ${left.join(", ")}\n${answers.join("\n")}`);
}

export interface FrontendPageOptions {
  width: number;
  height: number;
  /** The browser's language, which the frontend speaks (British English unless told). */
  locale?: string;
  /** The sidebar hidden, as a wall tablet's user sets it (the profile's "Always hide the sidebar"). */
  hideSidebar?: boolean;
}

/**
 * The household's zone for the browser too (the harness's Home Assistant and the simulator use it):
 * the frontend shows times in the browser's zone by default, so a picture reads the same anywhere.
 */
const BROWSER_TIME_ZONE = "Europe/Paris";

/** A page of its own browser context, signed in with `tokens`, at `path` once the frontend has loaded. */
export async function openFrontend(
  browser: Browser,
  tokens: FrontendTokens,
  path: string,
  viewport: FrontendPageOptions,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height },
    deviceScaleFactor: 1,
    locale: viewport.locale ?? "en-GB",
    timezoneId: BROWSER_TIME_ZONE,
    // Charts drawn at once, not grown: a picture or a reading never catches one half drawn.
    reducedMotion: "reduce",
  });
  // Before any script of the page runs: the frontend reads its tokens (and its preferences) at start.
  await context.addInitScript(
    ({ stored, hideSidebar }) => {
      window.localStorage.setItem("hassTokens", stored);
      if (hideSidebar) window.localStorage.setItem("dockedSidebar", JSON.stringify("always_hidden"));
    },
    { stored: JSON.stringify(tokens), hideSidebar: viewport.hideSidebar === true },
  );
  const page = await context.newPage();
  await page.goto(`${tokens.hassUrl}${path}`);
  return page;
}

/**
 * The text a person sees in each element matching `selector` (which pierces shadow roots), its
 * shadow trees included: the frontend puts some words straight into a shadow root (a relative time,
 * a gauge's number), where the page's text locators do not find them. Elements hidden by style
 * (a conditional card whose condition fails) are left out, as a person does not see them.
 */
export function visibleTexts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((elements) => {
    const textOf = (node: Node): string => {
      // Not checkVisibility(): the frontend's wrappers are `display: contents`, which it calls hidden.
      if (node instanceof Element) {
        const style = getComputedStyle(node);
        if (style.display === "none" || style.visibility === "hidden") return "";
      }
      let text = node instanceof Element && node.shadowRoot ? textOf(node.shadowRoot) : "";
      for (const child of Array.from(node.childNodes)) {
        if (child.nodeName === "STYLE" || child.nodeName === "SCRIPT") continue;
        text += child.nodeType === Node.TEXT_NODE ? child.textContent : textOf(child);
      }
      return text;
    };
    return elements.map((element) => textOf(element).replace(/\s+/g, " ").trim());
  });
}
