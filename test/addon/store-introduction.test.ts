import { describe, expect, it } from "vitest";
import { OLDEST_HOME_ASSISTANT_VERSION, releaseOf } from "../lab/home-assistant-versions.js";
import { REPOSITORY_FILES } from "./markdown.js";
import { readManifest, readText } from "./supervisor-rules.js";

// addon/README.md is what the app store shows of the app before it is installed (the Supervisor
// reads README.md beside the manifest; the bundle puts it there): a few lines a parent reads to
// decide, not the documentation. The store shows it away from the repository, so it can follow no
// relative link.

const introduction = readText("addon/README.md");
const prose = introduction.replace(/^#.*\n/gm, "");

describe("the store's introduction (addon/README.md)", () => {
  it("is titled with the app's name and says in a few lines what it shows", () => {
    expect(introduction.split("\n")[0]).toBe(`# ${readManifest().name}`);
    expect(prose.trim().split(/\n\s*\n/).length, "paragraphs").toBeLessThanOrEqual(5);
    expect(prose.length, "characters").toBeLessThan(1_500);
    for (const shown of ["minutes", "session ends", "points", "streak", "event"])
      expect(introduction, shown).toContain(shown);
  });

  it("says it is read-only and tested against a real Home Assistant, down to the oldest release it accepts", () => {
    expect(introduction).toContain("**Read-only.**");
    expect(introduction).toContain("**Tested against a real Home Assistant.**");
    // config.yaml's homeassistant: the oldest release the suites run the add-on on.
    const oldest = releaseOf(OLDEST_HOME_ASSISTANT_VERSION).split(".").slice(0, 2).join(".");
    expect(introduction).toContain(`${oldest}, the oldest it supports`);
  });

  it("links nothing relative, which the store could not follow", () => {
    const targets = [...introduction.matchAll(/\]\(([^)\s]+)\)|src="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    for (const target of targets) expect(target).toMatch(/^https:\/\//);
  });

  it("has the project's page as the app's url in config.yaml, which the store links, and the image's label", () => {
    const page = REPOSITORY_FILES.replace(/\/blob\/main\/$/, "");
    expect(readManifest().url).toBe(page);
    expect(readText("addon/Dockerfile")).toContain(`io.hass.url="${page}"`);
  });
});
